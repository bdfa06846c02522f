/// On or off as Home Assistant (`ON`/`OFF`), scripts (`true`/`false`) and people
/// (`enable`, `disabled`…) write it, in any case.
public enum SwitchWord {
    public static func parse(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "enable", "enabled": true
        case "off", "false", "disable", "disabled": false
        default: nil
        }
    }
}
