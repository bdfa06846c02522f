#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import MQTT
import ServiceLifecycle
import Synchronization

/// The bridge: connects to the broker, announces itself, runs the integrations, routes their
/// commands and, on graceful shutdown, stops them before it says `offline` and disconnects.
public final class Bridge: Service {
    public static let version = Product.version

    /// The configuration at start: what only a restart changes (the broker, the base topic).
    let configuration: LoadedConfiguration
    /// The configuration running now: the last one loaded, at start or by a reload.
    let current: Mutex<LoadedConfiguration>
    let running = RunningIntegrations()
    let logger: Logger
    let logControl: LogControl
    let source: ConfigurationSource?
    let client: MQTTClient
    let health = HealthRecorder()
    let metrics: BridgeMetrics
    private let timers: TimerStore
    private let responder: CommandResponder
    let discovery: DiscoveryPublisher?
    let events: BridgeEvents
    /// A reload runs; another is refused meanwhile.
    let isReloading = Mutex(false)
    /// Online with every integration launched, and not yet shutting down: a reload may stop and start them.
    let isServing = Atomic<Bool>(false)
    /// Signalled when `isServing` is first set, for a reload asked during the start.
    let startedServing = Wakeup()
    private let startedAt: ContinuousClock.Instant
    /// Messages the dispatcher is done with (routed, or answered itself): see `readEveryCommand`.
    private let messagesHandled = Atomic<Int>(0)
    /// Signalled after each one, for `readEveryCommand` to wait on.
    private let messageHandled = Wakeup()
    private let isStopping = Atomic<Bool>(false)
    /// What the observer (the page) is told; `nil` without one.
    let feed: ObserverFeed?

    /// - Parameters:
    ///   - logControl: the level and format `bridge/request/log_level` and a reload change, and
    ///     where `bridge/logging` comes from: the control `logger` (and the integrations') log through.
    ///   - source: where a reload (`bridge/request/reload`, SIGHUP) reads the configuration
    ///     again; `nil`: a reload is refused.
    ///   - observer: a client in this process that shows what the bridge does (the page).
    ///   - clock: what its timers, polls and time limits run on: the integrations' (their
    ///     `IntegrationEnvironment`'s) too; a test's moves by hand.
    public init(
        configuration: LoadedConfiguration, integrations: [any Integration], metrics: BridgeMetrics = BridgeMetrics(), logger: Logger,
        logControl: LogControl? = nil, source: ConfigurationSource? = nil, observer: (any BridgeObserver)? = nil,
        clock: any BridgeClock = .system
    ) throws {
        self.configuration = configuration
        current = Mutex(configuration)
        self.metrics = metrics
        self.logger = logger
        self.logControl = logControl ?? LogControl(configuration.bridge)
        self.source = source
        let feed = observer.map(ObserverFeed.init)
        self.feed = feed
        timers = try TimerStore(
            directory: configuration.bridge.stateDirectory, logger: logger, clock: clock, changed: metrics.upstreamHealth.changed)
        startedAt = clock.now
        var onPublish: (@Sendable (String, [UInt8], Bool) -> Void)?
        if let feed { onPublish = { topic, payload, retain in feed.published(topic, payload, retain: retain) } }
        client = try MQTTClient(configuration: configuration.bridge.mqtt, logger: logger, onPublish: onPublish)
        let topics = BridgeTopics(base: configuration.bridge.baseTopic)
        responder = CommandResponder(client: client, logger: logger, feed: feed)
        events = BridgeEvents(topic: topics.event, client: client, logger: logger)
        discovery = configuration.bridge.discoveryEnabled
            ? Self.makeDiscovery(configuration.bridge, integrations: integrations, client: client, logger: logger) : nil
        for integration in integrations { running.insert(makeRun(integration)) }
    }

    /// Whether the broker connection is up now: what `/healthz` reports.
    public var isBrokerConnected: Bool { client.isConnected }

    /// Successful reconnects to the broker since the start.
    public var brokerReconnects: Int { client.reconnectCount }

    var topics: BridgeTopics { BridgeTopics(base: configuration.bridge.baseTopic) }

    /// On `BridgeEventLoop.loop`, with every task it starts: see there.
    public func run() async throws {
        try await withTaskExecutorPreference(BridgeEventLoop.taskExecutor) { try await runAndStop() }
    }

    private func runAndStop() async throws {
        // Whichever way it ends, the integrations are shut down: what they opened (a session, an
        // HTTP client) is released, also when the start fails half-way.
        do {
            try await serve()
        } catch {
            await stop()
            throw error
        }
    }

    /// Announces itself, runs everything until a graceful shutdown, then stops. Nothing waits for
    /// the broker: the integrations start at once and act on their own while it is away (an
    /// interlock, a restore, a poll); what they publish meanwhile goes out when it is back, the
    /// latest of each topic. Only commands need the broker, and they arrive through it.
    private func serve() async throws {
        for run in running.all { try await (run.integration as? any ConfigurationChecks)?.checkConfigurationWithUpstream() }
        client.start()
        let requests = makeRequests()
        // Remembered offline, and made at each connect.
        for filter in requests.filters + running.all.flatMap(\.queue.filters) { try await subscribeCommands(filter) }
        if hasReplicas { try await client.subscribe(topics.state, qos: .atLeastOnce) }
        for filter in discovery?.subscriptions ?? [] {
            try await client.subscribe(filter, qos: .atLeastOnce)
        }
        publishRetained(topics.state, Array(BridgeTopics.online.utf8))
        publishRetained(topics.info, infoPayload.encoded())
        await discovery?.publishAll()
        let feed = LoggingFeed(topic: topics.logging, client: client)
        logControl.forward(to: { feed.publish($0) })
        logger.info("bridge started", metadata: ["base_topic": "\(topics.base)", "integrations": "\(running.all.map(\.name))"])
        for run in running.all { _ = running.launch(run) }
        isServing.store(true, ordering: .releasing)
        startedServing.signal()

        // Layers, each outliving the one inside it. At a graceful shutdown the background tasks
        // end and every integration run stops its polls, then closes its queue and answers what it
        // holds; the dispatcher goes on reading to the end of the broker connection, answering
        // every command still delivered "shutting down". A reload launches runs and stops them
        // meanwhile.
        await withDiscardingTaskGroup { reading in
            reading.addTask { await self.dispatch(requests: requests) }
            await withDiscardingTaskGroup { runs in
                runs.addTask { await requests.run() }
                runs.addTask {
                    await withDiscardingTaskGroup { background in
                        background.addTask { await self.sayWhenTheBrokerIsReached() }
                        background.addTask { await self.publishHealthEveryMinute() }
                        background.addTask { await self.recordConnectionChanges() }
                        try? await gracefulShutdown()
                        background.cancelAll()
                    }
                    self.isServing.store(false, ordering: .releasing)
                    requests.close()
                    self.running.stopAll()
                }
                for await run in running.launches { runs.addTask { await run.run() } }
            }
            await stop(readingEveryCommand: true)
        }
    }

    /// `base/bridge/request/+`, in a queue of its own: made while the bridge serves, as the
    /// requests reach into it.
    private func makeRequests() -> CommandQueue {
        let requests = BridgeRequests(healthCheck: { self.healthCheck() }, logControl: logControl) {
            // In a task of its own, which neither the request's time limit nor the shutdown
            // cancels: a reload stopped half-way would leave integrations stopped, or logged in.
            await Task(executorPreference: BridgeEventLoop.taskExecutor) { await self.reload() }.value
        }
        let context = IntegrationContext(
            topics: IntegrationTopics(bridge: topics, name: requests.name), logger: logger,
            timers: IntegrationTimers(store: timers, integration: requests.name), client: client, health: health, discovery: nil)
        return CommandQueue(
            integration: requests, context: context, responder: responder, timeLimit: configuration.bridge.commandTimeout, metrics: metrics)
    }

    /// Subscribes to an integration's (or the bridge's requests') command filter.
    func subscribeCommands(_ filter: String) async throws {
        try await client.subscribe(
            configuration.bridge.commandSubscription(filter), qos: .atLeastOnce, options: RetainedCommandLog.subscriptionOptions)
    }

    /// An integration ready to run, with its own queue and context.
    func makeRun(_ integration: any Integration) -> IntegrationRun {
        var integrationLogger = logger
        integrationLogger[metadataKey: "integration"] = "\(integration.name)"
        let events = events
        let credentialTopics = (integration as? any CredentialTopics)?.credentialTopics ?? []
        feed?.addCredentialTopics(credentialTopics.map { IntegrationTopics(bridge: topics, name: integration.name).topic($0) })
        let context = IntegrationContext(
            topics: IntegrationTopics(bridge: topics, name: integration.name), logger: integrationLogger,
            timers: IntegrationTimers(store: timers, integration: integration.name) { events.restoreCarriedOut($0) },
            client: client, health: health, discovery: discovery, events: events, peers: { [running] in running.run(named: $0) })
        return IntegrationRun(queue: CommandQueue(
            integration: integration, context: context, responder: responder,
            timeLimit: configuration.bridge.commandTimeout, metrics: metrics))
    }

    /// Logs `bridge online` once the broker first accepts the bridge, and until then every 10 s that
    /// it is still away: a bridge started before its broker (a common docker-compose race) runs
    /// meanwhile rather than dies.
    private func sayWhenTheBrokerIsReached() async {
        while !Task.isCancelled {
            do {
                try await client.waitUntilConnected(timeout: .seconds(10))
                logger.info("bridge online", metadata: ["base_topic": "\(topics.base)"])
                return
            } catch let error as MQTTError where error.code == .timeout {
                logger.warning("still waiting for the MQTT broker", metadata: [
                    "broker": "\(configuration.bridge.mqtt.host):\(configuration.bridge.mqtt.port)", "reason": "\(error.message)",
                ])
            } catch {
                return
            }
        }
    }

    private static func makeDiscovery(
        _ configuration: BridgeConfiguration, integrations: [any Integration], client: MQTTClient, logger: Logger
    ) -> DiscoveryPublisher {
        let topics = BridgeTopics(base: configuration.baseTopic)
        let config = DiscoveryConfig(
            topics: DiscoveryTopics(prefix: configuration.discoveryPrefix, base: topics.base),
            bridgeTopics: topics, version: Self.version
        )
        let entities = Dictionary(integrations.map { ($0.name, $0.declaredEntities(topics: IntegrationTopics(bridge: topics, name: $0.name))) }) { a, _ in a }
        let runtime = Set(integrations.filter { ($0 as? any HomeAssistantEntities)?.hasRuntimeEntities == true }.map(\.name))
        return DiscoveryPublisher(config: config, entities: entities, runtimeIntegrations: runtime, client: client, logger: logger)
    }

    private var hasReplicas: Bool { configuration.bridge.sharedSubscriptionGroup != nil }

    private func dispatch(requests: CommandQueue) async {
        for await message in client.messages {
            await route(message, requests: requests)
            messagesHandled.add(1, ordering: .releasing)
            messageHandled.signal()
        }
    }

    private func route(_ message: MQTTMessage, requests: CommandQueue) async {
        if let discovery, await discovery.handle(message) { return }
        if message.topic == topics.state {
            // A replica that went away (its last will, or its shutdown) said the bridge is
            // offline; this one still serves every command, so it says online again (not the
            // `offline` it published itself when stopping).
            if hasReplicas, message.payloadString == BridgeTopics.offline, !isStopping.load(ordering: .acquiring) {
                publishRetained(topics.state, Array(BridgeTopics.online.utf8))
            }
            return
        }
        if requests.accepts(message.topic) {
            requests.enqueue(message)
        } else if let queue = running.queue(accepting: message.topic) {
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
        let integrations = running.all.map(\.integration)
        let outcome = await withTimeLimit(.seconds(3)) {
            await withDiscardingTaskGroup { group in
                for integration in integrations { group.addTask { await integration.shutdown() } }
            }
        }
        if case .expired = outcome { logger.warning("integrations did not finish shutting down in 3 s") }
        let client = client, state = topics.state
        if client.isConnected {
            _ = await withTimeLimit(.seconds(1)) {
                try? await client.publish(state, payload: Array(BridgeTopics.offline.utf8), qos: .atLeastOnce, retain: true)
            }
        }
        if readingEveryCommand { await readEveryCommand() }
        logControl.forward(to: nil)
        await client.disconnect()
        logger.info("bridge offline")
    }

    func publishRetained(_ topic: String, _ payload: [UInt8]) {
        client.publishRetained(topic, payload: payload)
    }

    var infoPayload: JSONValue {
        [
            "version": .string(Self.version),
            "integrations": .array(running.all.map { .string($0.name) }),
            "config": current.withLock { $0.redacted },
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

    /// Every minute on the bridge's clock, and when an upstream starts or stops failing or a
    /// restore is set or done.
    private func publishHealthEveryMinute() async {
        let upstreams = metrics.upstreamHealth
        while !Task.isCancelled {
            let report = BridgeHealth(
                uptime: timers.clock.now - startedAt, reconnects: client.reconnectCount,
                lastSuccess: health.snapshot, upstreams: upstreams.snapshot, pendingRestores: timers.count
            )
            publishRetained(topics.health, report.payload.encoded())
            await upstreams.changed.wait(atMost: .seconds(60), on: timers.clock)
        }
    }
}
