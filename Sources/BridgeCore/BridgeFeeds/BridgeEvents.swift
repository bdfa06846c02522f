#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MQTT

/// Things that happened, on `base/bridge/event`: `{"type","time","data"}`, not retained, QoS 1.
/// An upstream that became unavailable or came back, a timed restore carried out, a
/// configuration reloaded.
final class BridgeEvents: Sendable {
    let availability = UpstreamAvailability()
    private let topic: String
    private let client: MQTTClient
    private let logger: Logger

    init(topic: String, client: MQTTClient, logger: Logger) {
        self.topic = topic
        self.client = client
        self.logger = logger
    }

    func availabilityPublished(integration: String, topic: String, online: Bool) {
        guard let change = availability.record(integration: integration, topic: topic, online: online) else { return }
        publish(change.available ? "upstream_available" : "upstream_unavailable", [
            "integration": .string(change.integration),
            "upstream": change.upstream.map(JSONValue.string) ?? .null,
            "error": change.error.map(JSONValue.string) ?? .null,
        ])
    }

    func restoreCarriedOut(_ timer: PersistedTimer) {
        publish("restore_carried_out", ["integration": .string(timer.integration), "target": .string(timer.key), "state": timer.restore])
    }

    func publish(_ type: String, _ data: [String: JSONValue]) {
        let payload: JSONValue = ["type": .string(type), "time": .string(Date().iso8601), "data": .object(data)]
        let logger = logger, topic = topic
        client.publish(topic, payload: payload.encoded(), qos: .atLeastOnce) { outcome in
            if case .failure(let error) = outcome {
                logger.debug("event not published", metadata: ["topic": "\(topic)", "type": "\(type)", "error": "\(error)"])
            }
        }
    }
}
