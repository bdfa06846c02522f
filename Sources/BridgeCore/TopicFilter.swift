/// MQTT topic filters (`+` one level, `#` the rest), matched as the broker matches them: level
/// by level, byte for byte.
public enum TopicFilter {
    /// Walks both texts' UTF-8 in place: every incoming message is matched against every command
    /// filter, and splitting both into arrays of levels each time was 4 % of the bridge's CPU
    /// time per command (issue 10's profile).
    public static func matches(_ filter: String, topic: String) -> Bool {
        let slash = UInt8(ascii: "/")
        var filterRest = Substring(filter).utf8[...], topicRest = Substring(topic).utf8[...]
        var topicEnded = false
        while true {
            let filterEnd = filterRest.firstIndex(of: slash) ?? filterRest.endIndex
            let level = filterRest[..<filterEnd]
            // `#` matches the rest, and the level above it too (`home/#` matches `home`).
            if level.elementsEqual("#".utf8) { return true }
            if topicEnded { return false }
            let topicEnd = topicRest.firstIndex(of: slash) ?? topicRest.endIndex
            if !level.elementsEqual("+".utf8), !level.elementsEqual(topicRest[..<topicEnd]) { return false }
            if filterEnd == filterRest.endIndex { return topicEnd == topicRest.endIndex }
            if topicEnd == topicRest.endIndex { topicEnded = true } else { topicRest = topicRest[topicRest.index(after: topicEnd)...] }
            filterRest = filterRest[filterRest.index(after: filterEnd)...]
        }
    }
}
