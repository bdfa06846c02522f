import Logging
import MQTT

/// What a running integration may do on MQTT: publish its state and availability, retained.
public struct IntegrationContext: Sendable {
    public let topics: IntegrationTopics
    public let logger: Logger
    let client: MQTTClient
    let health: HealthRecorder

    init(topics: IntegrationTopics, logger: Logger, client: MQTTClient, health: HealthRecorder) {
        self.topics = topics
        self.logger = logger
        self.client = client
        self.health = health
    }

    /// Publishes retained state below the integration's root (`""` is the root itself). The
    /// latest value is re-published after a reconnect, in case the broker lost it.
    public func publishState(_ relativeTopic: String, _ payload: JSONValue) async {
        await publishRetained(topics.topic(relativeTopic), payload.encoded())
    }

    /// `online` / `offline` at `<relativeTopic>`, retained.
    public func publishAvailability(_ relativeTopic: String, online: Bool) async {
        await publishRetained(topics.topic(relativeTopic), Array((online ? BridgeTopics.online : BridgeTopics.offline).utf8))
    }

    /// Marks a successful exchange with the upstream, for `bridge/health`.
    public func recordUpstreamSuccess() {
        health.recordSuccess(integration: topics.name)
    }

    private func publishRetained(_ topic: String, _ payload: [UInt8]) async {
        do {
            try await client.publish(topic, payload: payload, qos: .atLeastOnce, retain: true, republishOnReconnect: true)
        } catch {
            // The broker is away; the value is remembered and goes out on reconnect.
            logger.debug("state not published yet", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }
}
