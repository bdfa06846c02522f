import BridgeCore

enum TopicFuzz {
    /// The input is a filter and a topic, split at the first zero byte; `TopicFilter.matches`
    /// must agree with the plain reading of MQTT 5 §4.7 below for every valid filter (the bridge
    /// builds its filters itself, so an invalid one only needs not to trap).
    static func run(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let filter = String(decoding: parts[0], as: UTF8.self)
        let topic = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : ""
        let fast = TopicFilter.matches(filter, topic: topic)
        guard let expected = reference(filter, topic: topic) else { return }
        guard fast == expected else {
            fatalError("TopicFilter.matches(\(filter.debugDescription), topic: \(topic.debugDescription)) = \(fast)")
        }
    }

    /// Level by level: `+` is any one level, a final `#` any rest (also none, its parent included).
    /// Nil for an invalid filter: a wildcard inside a level, or `#` before the last level.
    private static func reference(_ filter: String, topic: String) -> Bool? {
        let filterLevels = filter.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let topicLevels = topic.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for (position, level) in filterLevels.enumerated() where level.contains(UInt8(ascii: "#")) || level.contains(UInt8(ascii: "+")) {
            guard level.count == 1, level.first != UInt8(ascii: "#") || position == filterLevels.count - 1 else { return nil }
        }
        for (position, level) in filterLevels.enumerated() {
            if level.elementsEqual("#".utf8) { return true }
            guard position < topicLevels.count else { return false }
            if level.elementsEqual("+".utf8) { continue }
            guard level.elementsEqual(topicLevels[position]) else { return false }
        }
        return filterLevels.count == topicLevels.count
    }
}
