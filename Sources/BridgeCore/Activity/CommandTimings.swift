import MQTT

/// When each command waiting for its answer arrived. A message carries no id of its own: a
/// command is known again by its topic, payload and reply address, and of several alike the
/// oldest is taken (alike, they are carried out in arrival order). Bounded: a command never
/// answered (one the bridge stops before) is forgotten once `capacity` newer ones wait.
struct CommandTimings: Sendable {
    struct Key: Hashable, Sendable {
        let topic: String
        let payload: [UInt8]
        let responseTopic: String?
        let correlationData: [UInt8]?

        init(_ message: MQTTMessage) {
            topic = message.topic
            payload = message.payload
            responseTopic = message.properties.responseTopic
            correlationData = message.properties.correlationData
        }
    }

    static let capacity = 1024
    private var waiting = RecentRing<(key: Key, at: ContinuousClock.Instant)>(capacity: capacity)

    mutating func arrived(_ message: MQTTMessage) {
        waiting.append((Key(message), .now))
    }

    /// When `message` arrived, and it is forgotten; `nil` when it was not seen arriving.
    mutating func answered(_ message: MQTTMessage) -> ContinuousClock.Instant? {
        let key = Key(message)
        guard let index = waiting.elements.firstIndex(where: { $0.key == key }) else { return nil }
        return waiting.remove(at: index).at
    }
}
