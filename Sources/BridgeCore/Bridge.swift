#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MQTT
import ServiceLifecycle
import Synchronization
import enum UpstreamHTTP.BridgeEventLoop
import enum UpstreamHTTP.Product

/// The bridge: connects to the broker, announces itself, runs the integrations, routes their
/// commands and, on graceful shutdown, stops them before it says `offline` and disconnects.
public final class Bridge: Service {
    public static let version = Product.version

    private let configuration: LoadedConfiguration
    private let integrations: [any Integration]
    private let logger: Logger
    private let client: MQTTClient
    private let health = HealthRecorder()
    private let metrics: BridgeMetrics
    private let timers: TimerStore
    private let startedAt = ContinuousClock.now
    /// Messages the dispatcher is done with (routed, or answered itself): see `readEveryCommand`.
    private let messagesHandled = Atomic<Int>(0)
    /// Signalled after each one, for `readEveryCommand` to wait on.
    private let messageHandled = Wakeup()
    private let isStopping = Atomic<Bool>(false)
    /// What the page shows and how it sends commands (`bridge.web`); `nil` without the page.
    let activity: BridgeActivity?
    /// The integrations' command queues once the bridge is online: where the page's commands go.
    let commandQueues = Mutex<[CommandQueue]>([])

    public init(
        configuration: LoadedConfiguration, integrations: [any Integration], metrics: BridgeMetrics = BridgeMetrics(), logger: Logger,
        activity: BridgeActivity? = nil
    ) throws {
        self.configuration = configuration
        self.integrations = integrations
        self.metrics = metrics
        self.logger = logger
        self.activity = activity
        timers = try TimerStore(directory: configuration.bridge.stateDirectory, logger: logger)
        var onPublish: (@Sendable (String, [UInt8], Bool) -> Void)?
        if let activity { onPublish = { topic, payload, retain in activity.published(topic, payload, retain: retain) } }
        client = try MQTTClient(configuration: configuration.bridge.mqtt, logger: logger, onPublish: onPublish)
    }

    /// Whether the broker connection is up now: what `/healthz` reports.
    public var isBrokerConnected: Bool { client.isConnected }

    /// Successful reconnects to the broker since the start.
    public var brokerReconnects: Int { client.reconnectCount }

    private var topics: BridgeTopics { BridgeTopics(base: configuration.bridge.baseTopic) }

    /// On `BridgeEventLoop.loop`, with every task it starts: see there.
    public func run() async throws {
        try await withTaskExecutorPreference(BridgeEventLoop.taskExecutor) { try await runAndStop() }
    }

    private func runAndStop() async throws {
        // Whichever way it ends, the integrations are shut down: what they opened (a session, an
        // HTTP client) is released, also when the start fails half-way.
        do {
            try await serve()
        } catch is CancellationError {
            logger.info("shut down before the MQTT broker answered")
            await stop()
        } catch {
            await stop()
            throw error
        }
    }

    /// Connects, announces itself and runs everything until a graceful shutdown, then stops.
    private func serve() async throws {
        for integration in integrations { try await integration.checkConfigurationWithUpstream() }
        client.start()
        // A bridge still waiting for its broker stops when told to, as one that is online does.
        try await cancelWhenGracefulShutdown { try await self.waitForBroker() }

        let responder = CommandResponder(client: client, logger: logger, activity: activity)
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
        commandQueues.withLock { $0 = queues }

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

        // Three layers, each outliving the one inside it. At a graceful shutdown the polls stop;
        // then the queues close and answer what they hold; the dispatcher goes on reading to the
        // end of the broker connection, answering every command still delivered "shutting down".
        await withDiscardingTaskGroup { reading in
            reading.addTask { await self.dispatch(queues: queues, discovery: discovery) }
            await withDiscardingTaskGroup { commands in
                for queue in queues { commands.addTask { await queue.run() } }
                await withDiscardingTaskGroup { polling in
                    for queue in queues { polling.addTask { await queue.integration.run(context: queue.context) } }
                    polling.addTask { await self.publishHealthEveryMinute() }
                    polling.addTask { await self.recordConnectionChanges() }
                    try? await gracefulShutdown()
                    polling.cancelAll()
                }
                for queue in queues { queue.close() }
            }
            await stop(readingEveryCommand: true)
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
            await route(message, queues: queues, discovery: discovery)
            messagesHandled.add(1, ordering: .releasing)
            messageHandled.signal()
        }
    }

    private func route(_ message: MQTTMessage, queues: [CommandQueue], discovery: DiscoveryPublisher?) async {
        if let discovery, await discovery.handle(message) { return }
        if message.topic == topics.state {
            // A replica that went away (its last will, or its shutdown) said the bridge is
            // offline; this one still serves every command, so it says online again (not the
            // `offline` it published itself when stopping).
            if hasReplicas, message.payloadString == BridgeTopics.offline, !isStopping.load(ordering: .acquiring) {
                try? await publishRetained(topics.state, Array(BridgeTopics.online.utf8))
            }
            return
        }
        if let queue = queues.first(where: { $0.accepts(message.topic) }) {
            activity?.received(message)
            queue.enqueue(message)
        } else {
            logger.debug("message on no command topic", metadata: ["topic": "\(message.topic)"])
        }
    }

    /// The client stops reading, so nothing more is acknowledged; then the dispatcher handles every
    /// message that was, and its answers are queued before the disconnect. What the broker sends
    /// from now on waits in the session for the next start. Bounded: a second at most.
    private func readEveryCommand() async {
        await client.stopReceiving()
        let delivered = client.messagesReceived
        let deadline = ContinuousClock.now + .seconds(1)
        while messagesHandled.load(ordering: .acquiring) < delivered, ContinuousClock.now < deadline {
            await messageHandled.wait(atMost: deadline - .now)
        }
        let unhandled = delivered - messagesHandled.load(ordering: .acquiring)
        if unhandled > 0 { logger.warning("messages received but not handled before the disconnect", metadata: ["count": "\(unhandled)"]) }
    }

    /// Integrations first (so they can log out upstream), then `offline`, then a clean disconnect:
    /// all bounded, so the process exits well within the 5 s a supervisor allows.
    /// `readingEveryCommand`: the dispatcher runs, and every command the client acknowledged is
    /// answered before the disconnect.
    private func stop(readingEveryCommand: Bool = false) async {
        isStopping.store(true, ordering: .releasing)
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
        if readingEveryCommand { await readEveryCommand() }
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
