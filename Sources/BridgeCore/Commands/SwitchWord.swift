/// The words that switch something on or off, as people and Home Assistant send them.
public enum SwitchWord {
    /// `ON`/`OFF` (Home Assistant's switch), also `true`/`false`, `enable(d)`/`disable(d)`, in any
    /// case. - Returns: `nil` for any other word.
    public static func parse(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "enable", "enabled": return true
        case "off", "false", "disable", "disabled": return false
        default: return nil
        }
    }
}
