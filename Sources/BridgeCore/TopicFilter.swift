/// MQTT topic filters (`+` one level, `#` the rest), matched as the broker matches them.
public enum TopicFilter {
    public static func matches(_ filter: String, topic: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+", level != topicLevels[index] { return false }
        }
        return filterLevels.count == topicLevels.count
    }
}
