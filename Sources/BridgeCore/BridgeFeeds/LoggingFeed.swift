import Logging
import MQTT
import Synchronization

/// The bridge's warnings and errors on `base/bridge/logging`, for Home Assistant or Node-RED to
/// watch: `{"level","message","logger","time"}`, not retained, QoS 0 (offline they are dropped, not
/// queued). At most 10 a second with bursts of 20; the next message that goes out after some were
/// dropped says how many in `"dropped"`.
final class LoggingFeed: Sendable {
    private struct State {
        var bucket = TokenBucket(rate: 10, burst: 20)
        var dropped = 0
    }

    private let topic: String
    private let client: MQTTClient
    private let state = Mutex(State())

    /// Set while a record is being published: whatever that publish logs is not published again.
    @TaskLocal private static var isPublishing = false

    init(topic: String, client: MQTTClient) {
        self.topic = topic
        self.client = client
    }

    func publish(_ record: LogRecord) {
        guard !Self.isPublishing else { return }
        let dropped: Int? = state.withLock { state in
            guard state.bucket.take() else {
                state.dropped += 1
                return nil
            }
            defer { state.dropped = 0 }
            return state.dropped
        }
        guard let dropped else { return }
        var object: [String: JSONValue] = [
            "level": .string(record.level.rawValue), "message": .string(record.message),
            "logger": .string(record.logger), "time": .string(record.time.iso8601),
        ]
        if dropped > 0 { object["dropped"] = .number(Double(dropped)) }
        Self.$isPublishing.withValue(true) {
            // A failure is not logged: that would be a warning about a warning.
            client.publish(topic, payload: JSONValue.object(object).encoded(), qos: .atMostOnce) { _ in }
        }
    }
}
