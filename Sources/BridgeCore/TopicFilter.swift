/// MQTT topic filters (`+` one level, `#` the rest), matched as the broker matches them: level
/// by level, byte for byte.
public enum TopicFilter {
    /// Walks both texts' UTF-8 in place: every incoming message is matched against command
    /// filters, and splitting both into arrays of levels (or walking them as
    /// `Substring.UTF8View`s, with their index checks) each time showed in every command's cost.
    public static func matches(_ filter: String, topic: String) -> Bool {
        var filter = filter, topic = topic
        return filter.withUTF8 { filter in topic.withUTF8 { topic in matches(filter, topic: topic) } }
    }

    private static func matches(_ filter: UnsafeBufferPointer<UInt8>, topic: UnsafeBufferPointer<UInt8>) -> Bool {
        var filterStart = 0, topicStart = 0
        var topicEnded = false
        while true {
            let filterEnd = levelEnd(filter, from: filterStart)
            let level = UnsafeBufferPointer(rebasing: filter[filterStart..<filterEnd])
            // `#` matches the rest, and the level above it too (`home/#` matches `home`).
            if level.count == 1, level[0] == UInt8(ascii: "#") { return true }
            if topicEnded { return false }
            let topicEnd = levelEnd(topic, from: topicStart)
            let isPlus = level.count == 1 && level[0] == UInt8(ascii: "+")
            if !isPlus, !level.elementsEqual(UnsafeBufferPointer(rebasing: topic[topicStart..<topicEnd])) { return false }
            if filterEnd == filter.count { return topicEnd == topic.count }
            if topicEnd == topic.count { topicEnded = true } else { topicStart = topicEnd + 1 }
            filterStart = filterEnd + 1
        }
    }

    /// The index of the `/` that ends the level starting at `start`, or the end of `text`.
    private static func levelEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < text.count, text[end] != UInt8(ascii: "/") { end += 1 }
        return end
    }
}
