import Logging
import MQTT

/// Publishes the current discovery configs, publishes them again when Home Assistant comes
/// online, and clears the retained configs of entities that no longer exist.
///
/// Stale configs are found without any timing: the bridge subscribes to all of its own config
/// topics, and any *retained* one the broker hands over that is not current is cleared.
struct DiscoveryPublisher: Sendable {
    let config: DiscoveryConfig
    let messages: [String: JSONValue]
    let client: MQTTClient
    let logger: Logger

    init(config: DiscoveryConfig, entities: [DiscoveryEntity], client: MQTTClient, logger: Logger) {
        self.config = config
        self.client = client
        self.logger = logger
        var messages: [String: JSONValue] = [:]
        for entity in [config.bridgeEntity] + entities {
            let message = config.message(for: entity)
            messages[message.topic] = message.payload
        }
        self.messages = messages
    }

    var subscriptions: [String] { [config.topics.homeAssistantStatus, config.topics.allConfigs] }

    func publishAll() async {
        for (topic, payload) in messages.sorted(by: { $0.key < $1.key }) {
            await publish(topic, payload.encoded())
        }
        logger.info("published Home Assistant discovery", metadata: ["entities": "\(messages.count)"])
    }

    /// - Returns: whether the message was discovery business (and so needs nothing else).
    func handle(_ message: MQTTMessage) async -> Bool {
        if message.topic == config.topics.homeAssistantStatus {
            if message.payloadString == "online" { await publishAll() }
            return true
        }
        guard TopicFilter.matches(config.topics.allConfigs, topic: message.topic) else { return false }
        if message.retain, !message.payload.isEmpty, messages[message.topic] == nil {
            logger.info("clearing the discovery config of an entity that no longer exists", metadata: ["topic": "\(message.topic)"])
            await publish(message.topic, [])
        }
        return true
    }

    private func publish(_ topic: String, _ payload: [UInt8]) async {
        do {
            try await client.publish(topic, payload: payload, qos: .atLeastOnce, retain: true)
        } catch {
            logger.warning("discovery config not published", metadata: ["topic": "\(topic)", "error": "\(error)"])
        }
    }
}
