import Logging
import MQTT
import Synchronization

/// Publishes the current discovery configs, publishes them again when Home Assistant comes
/// online, keeps each integration's runtime entities current, and clears the retained configs
/// of entities that no longer exist.
///
/// Stale configs are found without any timing: the bridge subscribes to all of its own config
/// topics, and any *retained* one the broker hands over that is not current is cleared. While an
/// integration with runtime entities has not yet said which it has (its upstream may be down at
/// start), unknown configs are only noted, so its entities are not removed and added again.
final class DiscoveryPublisher: Sendable {
    private struct State {
        /// Integration (`""`: the bridge) → config topic → payload, of the entities known from the configuration.
        var declared: [String: [String: JSONValue]] = [:]
        /// Integration → config topic → payload.
        var runtime: [String: [String: JSONValue]] = [:]
        /// Integrations with runtime entities that have not reported them yet.
        var awaiting: Set<String>
        /// Retained configs seen while `awaiting` was not empty, none of them current then.
        var candidates: Set<String> = []

        func isCurrent(_ topic: String) -> Bool {
            declared.values.contains { $0[topic] != nil } || runtime.values.contains { $0[topic] != nil }
        }

        var all: [String: JSONValue] {
            (Array(declared.values) + Array(runtime.values)).reduce(into: [:]) { $0.merge($1) { first, _ in first } }
        }
    }

    let config: DiscoveryConfig
    private let state: Mutex<State>
    private let client: MQTTClient
    private let logger: Logger

    init(config: DiscoveryConfig, entities: [String: [DiscoveryEntity]], runtimeIntegrations: Set<String>, client: MQTTClient, logger: Logger) {
        self.config = config
        self.client = client
        self.logger = logger
        var state = State(awaiting: runtimeIntegrations)
        state.declared = entities.mapValues { Self.messages(config, $0) }
        state.declared[""] = Self.messages(config, config.bridgeEntities)
        self.state = Mutex(state)
    }

    private static func messages(_ config: DiscoveryConfig, _ entities: [DiscoveryEntity]) -> [String: JSONValue] {
        var messages: [String: JSONValue] = [:]
        for entity in entities {
            let message = config.message(for: entity)
            messages[message.topic] = message.payload
        }
        return messages
    }

    var subscriptions: [String] { [config.topics.homeAssistantStatus, config.topics.allConfigs] }

    func publishAll() async {
        let messages = state.withLock { $0.all }
        for (topic, payload) in messages.sorted(by: { $0.key < $1.key }) {
            await publish(topic, payload.encoded())
        }
        logger.info("published Home Assistant discovery", metadata: ["entities": "\(messages.count)"])
    }

    /// Makes `entities` the runtime entities of `integration`: new and changed configs are
    /// published, those of entities that went away are cleared.
    func setRuntimeEntities(_ entities: [DiscoveryEntity], of integration: String) async {
        let new = Self.messages(config, entities)
        let (changed, removed, stale) = state.withLock { state in
            let old = state.runtime[integration] ?? [:]
            state.runtime[integration] = new
            let changed = new.filter { old[$0.key] != $0.value }
            let removed = old.keys.filter { new[$0] == nil && !state.isCurrent($0) }
            var stale: [String] = []
            if state.awaiting.remove(integration) != nil, state.awaiting.isEmpty {
                stale = state.candidates.filter { !state.isCurrent($0) }
                state.candidates = []
            }
            return (changed, removed, stale)
        }
        for (topic, payload) in changed.sorted(by: { $0.key < $1.key }) { await publish(topic, payload.encoded()) }
        for topic in removed.sorted() + stale.sorted() { await clear(topic) }
    }

    /// Makes `entities` the entities `integration` declares (a reload added or changed it): new
    /// and changed configs are published, those no longer declared are cleared. Its runtime
    /// entities stay until it sets them again.
    func setDeclaredEntities(_ entities: [DiscoveryEntity], of integration: String) async {
        let new = Self.messages(config, entities)
        let (changed, removed) = state.withLock { state in
            let old = state.declared[integration] ?? [:]
            state.declared[integration] = new
            return (new.filter { old[$0.key] != $0.value }, old.keys.filter { new[$0] == nil && !state.isCurrent($0) })
        }
        for (topic, payload) in changed.sorted(by: { $0.key < $1.key }) { await publish(topic, payload.encoded()) }
        for topic in removed.sorted() { await clear(topic) }
    }

    /// `integration` was removed (a reload): every entity it had leaves Home Assistant.
    func removeEntities(of integration: String) async {
        let removed = state.withLock { state in
            let topics = Set((state.declared[integration] ?? [:]).keys).union((state.runtime[integration] ?? [:]).keys)
            state.declared[integration] = nil
            state.runtime[integration] = nil
            state.awaiting.remove(integration)
            return topics.filter { !state.isCurrent($0) }
        }
        for topic in removed.sorted() { await clear(topic) }
    }

    /// - Returns: whether the message was discovery business (and so needs nothing else).
    func handle(_ message: MQTTMessage) async -> Bool {
        if message.topic == config.topics.homeAssistantStatus {
            if message.payloadString == "online" { await publishAll() }
            return true
        }
        guard TopicFilter.matches(config.topics.allConfigs, topic: message.topic) else { return false }
        guard message.retain, !message.payload.isEmpty else { return true }
        let clearNow = state.withLock { state in
            guard !state.isCurrent(message.topic) else { return false }
            guard state.awaiting.isEmpty else {
                state.candidates.insert(message.topic)
                return false
            }
            return true
        }
        if clearNow { await clear(message.topic) }
        return true
    }

    private func clear(_ topic: String) async {
        logger.info("clearing the discovery config of an entity that no longer exists", metadata: ["topic": "\(topic)"])
        await publish(topic, [])
    }

    private func publish(_ topic: String, _ payload: [UInt8]) async {
        // Again after every reconnect: a broker that lost its retained messages (restarted
        // without persistence) has them back without waiting for Home Assistant's `online`.
        client.publishRetained(topic, payload: payload)
        // Hundreds of configs at once: the loop's other tasks (upstream reads) run between them.
        await Task.yield()
    }
}
