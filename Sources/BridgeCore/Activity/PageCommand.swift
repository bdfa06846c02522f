import MQTT
import Synchronization

/// A command sent from the page: an MQTT message like any other, so that it takes the same
/// queue, limits and metrics, but whose answer goes back to the page that waits for it.
///
/// It is told apart by its response topic, which starts with U+0000: no message from a broker can
/// carry that (MQTT forbids the null character in its strings).
struct PageReplies: Sendable {
    static let marker = "\u{0}page/"
    /// Page commands waiting for their answers at once, beyond which a new one is refused.
    static let capacity = 64

    private var waiting: [Int: CheckedContinuation<CommandResponse, Never>] = [:]
    private var nextID = 0

    static func id(of message: MQTTMessage) -> Int? {
        guard let topic = message.properties.responseTopic, topic.hasPrefix(marker) else { return nil }
        return Int(topic.dropFirst(marker.count))
    }

    /// The message for `topic` and `payload`, with a place for its answer; `nil` when full.
    mutating func message(
        _ topic: String, _ payload: [UInt8], answer: CheckedContinuation<CommandResponse, Never>
    ) -> MQTTMessage? {
        guard waiting.count < Self.capacity else { return nil }
        let id = nextID
        nextID += 1
        waiting[id] = answer
        return MQTTMessage(
            topic: topic, payload: payload, qos: .atLeastOnce, retain: false,
            properties: MQTTProperties(responseTopic: Self.marker + String(id)))
    }

    mutating func take(_ id: Int) -> CheckedContinuation<CommandResponse, Never>? {
        waiting.removeValue(forKey: id)
    }
}
