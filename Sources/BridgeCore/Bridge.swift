#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MQTT
import ServiceLifecycle

/// The bridge: connects to the broker, announces itself, runs the integrations, routes their
/// commands and, on graceful shutdown, stops them before it says `offline` and disconnects.
public final class Bridge: Service {
    public static let version = "0.1.0"

    private let configuration: LoadedConfiguration
    private let integrations: [any Integration]
    private let logger: Logger
    private let client: MQTTClient
    private let health = HealthRecorder()
    private let metrics: BridgeMetrics
    private let timers: TimerStore
    private let startedAt = ContinuousClock.now

    public init(
        configuration: LoadedConfiguration, integrations: [any Integration], metrics: BridgeMetrics = BridgeMetrics(), logger: Logger
    ) throws {
        self.configuration = configuration
        self.integrations = integrations
        self.metrics = metrics
        self.logger = logger
        timers = try TimerStore(directory: configuration.bridge.stateDirectory, logger: logger)
        client = try MQTTClient(configuration: configuration.bridge.mqtt, logger: logger)
    }

    /// Whether the broker connection is up now: what `/healthz` reports.
    public var isBrokerConnected: Bool { client.isConnected }

    private var topics: BridgeTopics { BridgeTopics(base: configuration.bridge.baseTopic) }

    public func run() async throws {
        // Whichever way it ends, the integrations are shut down: what they opened (a session, an
        // HTTP client) is released, also when the start fails half-way.
        do {
            try await serve()
        } catch is CancellationError {
            logger.info("shut down before the MQTT broker answered")
        } catch {
            await stop()
            throw error
        }
        await stop()
    }

    /// Connects, announces itself and runs everything until a graceful shutdown.
    private func serve() async throws {
        for integration in integrations { try await integration.checkConfigurationWithUpstream() }
        client.start()
        // A bridge still waiting for its broker stops when told to, as one that is online does.
        try await cancelWhenGracefulShutdown { try await self.waitForBroker() }

        let responder = CommandResponder(client: client, logger: logger)
        let discovery = configuration.bridge.discoveryEnabled ? makeDiscovery() : nil
        let queues = integrations.map { integration in
            let topics = IntegrationTopics(bridge: topics, name: integration.name)
            var integrationLogger = logger
            integrationLogger[metadataKey: "integration"] = "\(integration.name)"
            let context = IntegrationContext(
                topics: topics, logger: integrationLogger,
                timers: IntegrationTimers(store: timers, integration: integration.name),
                client: client, health: health, discovery: discovery)
            return CommandQueue(
                integration: integration, context: context, responder: responder,
                timeLimit: configuration.bridge.commandTimeout, metrics: metrics)
        }

        for filter in queues.flatMap(\.filters) {
            try await client.subscribe(
                configuration.bridge.commandSubscription(filter), qos: .atLeastOnce, options: RetainedCommandLog.subscriptionOptions)
        }
        if hasReplicas { try await client.subscribe(topics.state, qos: .atLeastOnce) }
        for filter in discovery?.subscriptions ?? [] {
            try await client.subscribe(filter, qos: .atLeastOnce)
        }
        try await publishRetained(topics.state, Array(BridgeTopics.online.utf8))
        try await publishRetained(topics.info, infoPayload.encoded())
        await discovery?.publishAll()
        logger.info("bridge online", metadata: ["base_topic": "\(topics.base)", "integrations": "\(integrations.map(\.name))"])

        await withDiscardingTaskGroup { group in
            for queue in queues {
                group.addTask { await queue.integration.run(context: queue.context) }
                group.addTask { await queue.run() }
            }
            group.addTask { await self.dispatch(queues: queues, discovery: discovery) }
            group.addTask { await self.publishHealthEveryMinute() }
            group.addTask { await self.recordConnectionChanges() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    /// Retries until the broker accepts us: a bridge started before its broker (a common
    /// docker-compose race) waits rather than dies.
    private func waitForBroker() async throws {
        while true {
            do {
                try await client.waitUntilConnected(timeout: .seconds(10))
                return
            } catch let error as MQTTError where error.code == .timeout {
                try Task.checkCancellation()
                logger.warning("still waiting for the MQTT broker", metadata: [
                    "broker": "\(configuration.bridge.mqtt.host):\(configuration.bridge.mqtt.port)", "reason": "\(error.message)",
                ])
            }
        }
    }

    private func makeDiscovery() -> DiscoveryPublisher {
        let config = DiscoveryConfig(
            topics: DiscoveryTopics(prefix: configuration.bridge.discoveryPrefix, base: topics.base),
            bridgeTopics: topics, version: Self.version
        )
        let entities = integrations.flatMap { $0.discoveryEntities(topics: IntegrationTopics(bridge: topics, name: $0.name)) }
        let runtime = Set(integrations.filter(\.hasRuntimeEntities).map(\.name))
        return DiscoveryPublisher(config: config, entities: entities, runtimeIntegrations: runtime, client: client, logger: logger)
    }

    private var hasReplicas: Bool { configuration.bridge.sharedSubscriptionGroup != nil }

    private func dispatch(queues: [CommandQueue], discovery: DiscoveryPublisher?) async {
        for await message in client.messages {
            if let discovery, await discovery.handle(message) { continue }
            if message.topic == topics.state {
                // A replica that went away (its last will, or its shutdown) said the bridge is
                // offline; this one still serves every command, so it says online again.
                if hasReplicas, message.payloadString == BridgeTopics.offline {
                    try? await publishRetained(topics.state, Array(BridgeTopics.online.utf8))
                }
                continue
            }
            guard let queue = queues.first(where: { $0.accepts(message.topic) }) else {
                logger.debug("message on no command topic", metadata: ["topic": "\(message.topic)"])
                continue
            }
            queue.enqueue(message)
        }
    }

    /// Integrations first (so they can log out upstream), then `offline`, then a clean disconnect:
    /// all bounded, so the process exits well within the 5 s a supervisor allows.
    private func stop() async {
        logger.info("shutting down")
        let integrations = integrations
        let finished: Void? = await withTimeLimit(.seconds(3)) {
            await withDiscardingTaskGroup { group in
                for integration in integrations { group.addTask { await integration.shutdown() } }
            }
        }
        if finished == nil { logger.warning("integrations did not finish shutting down in 3 s") }
        let client = client, state = topics.state
        _ = await withTimeLimit(.seconds(1)) {
            try? await client.publish(state, payload: Array(BridgeTopics.offline.utf8), qos: .atLeastOnce, retain: true)
        }
        await client.disconnect()
        logger.info("bridge offline")
    }

    private func publishRetained(_ topic: String, _ payload: [UInt8]) async throws {
        try await client.publish(topic, payload: payload, qos: .atLeastOnce, retain: true, republishOnReconnect: true)
    }

    private var infoPayload: JSONValue {
        [
            "version": .string(Self.version),
            "integrations": .array(integrations.map { .string($0.name) }),
            "config": configuration.redacted,
        ]
    }

    private func recordConnectionChanges() async {
        metrics.brokerConnection(connected: client.isConnected, reconnect: false)
        for await event in client.connectionEvents {
            switch event {
            case .connected(let reconnect): metrics.brokerConnection(connected: true, reconnect: reconnect)
            case .disconnected: metrics.brokerConnection(connected: false, reconnect: false)
            }
        }
    }

    private func publishHealthEveryMinute() async {
        while !Task.isCancelled {
            let report = BridgeHealth(
                uptime: ContinuousClock.now - startedAt, reconnects: client.reconnectCount,
                lastSuccess: health.snapshot
            )
            try? await publishRetained(topics.health, report.payload.encoded())
            try? await Task.sleep(for: .seconds(60))
        }
    }
}
