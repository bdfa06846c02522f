import BellasReefAPI
import BridgeCore
import Logging
import Synchronization

/// Bella's Reef on MQTT: the controller's health and load, every temperature probe, every
/// smart outlet's state and power, and switching outlets, for good or for a while.
final class ReefIntegration: Integration, HomeAssistantEntities, ConfigurationChecks {
    let name = ReefTopics.name
    let commandFilters = ReefTopics.commandFilters
    let hasRuntimeEntities = true
    let configuration: ReefConfiguration
    let services: ReefServices
    private let core: ReefCorePoller
    private let probes: ReefProbePoller
    private let outlets: ReefOutletPoller
    let control: ReefOutletControl
    /// `nil` without `reef.feed`.
    private let feed: ReefFeed?
    /// `nil` without `reef.guard`.
    private let probeGuard: ReefGuard?
    /// `reef.interlocks`; with none configured, it still ends the holds a removed one left.
    private let interlocks: ReefInterlocks
    /// What went out last: only changes are published, and things that went away are cleared.
    private let published = Mutex(ChangedState())
    /// The runtime entities, built and set only when the outlets and probes they are made of change.
    private let runtimeEntities = RuntimeEntityBuilder<ReefDiscovery.Things>()

    init(configuration: ReefConfiguration, environment: IntegrationEnvironment) {
        self.configuration = configuration
        var logger = environment.logger
        logger[metadataKey: "integration"] = "\(ReefTopics.name)"
        let upstream = ReefUpstream(
            connection: configuration.connection, tls: configuration.tls, logger: logger, clock: environment.clock,
            metrics: environment.metrics)
        services = ReefServices(upstream: upstream, state: ReefState(logger: logger), clock: environment.clock)
        core = ReefCorePoller(services: services)
        probes = ReefProbePoller(services: services, logger: logger)
        outlets = ReefOutletPoller(services: services)
        control = ReefOutletControl(services: services, poller: outlets, logger: logger)
        let interlocks = ReefInterlocks(configuration: configuration.interlocks, services: services, control: control, logger: logger)
        self.interlocks = interlocks
        let services = services, control = control
        feed = configuration.feed.map {
            ReefFeed(configuration: $0, services: services, control: control, interlocks: interlocks, logger: logger)
        }
        probeGuard = configuration.probeGuard.map { ReefGuard(configuration: $0, logger: logger, startedAt: environment.clock.wallNow) }
    }

    let configurationHints = [
        "temperature_url and outlets_url default to the core's host on ports 8004 and 8005; write false to turn one off",
        "a plug's own connection failures take the controller 12–18 s: with request_timeout below that, a command to a dead "
            + "plug is answered with a timeout instead of the controller's outlet_connection_error",
    ]

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        ReefDiscovery(
            topics: topics, services: configuration.services, hasFeed: configuration.feed != nil,
            guarded: configuration.probeGuard?.probes ?? [], interlocks: configuration.interlocks).configured
    }

    func run(context: IntegrationContext) async {
        let services = configuration.services
        interlocks.resume(pending: context.timers.pending, now: self.services.clock.wallNow)
        await withDiscardingTaskGroup { group in
            group.addTask { await self.publishChanges(context) }
            if !configuration.interlocks.isEmpty { group.addTask { await self.interlocks.run(context) } }
            group.addTask {
                await context.timers.run { await self.carryOutRestore($0, context: context) }
            }
            group.addTask { await self.loop(.core, every: self.configuration.metricsInterval) { await self.core.poll() } }
            if services.contains(.temperature) {
                group.addTask { await self.loop(.temperature, every: self.configuration.temperatureInterval) { await self.probes.poll() } }
            }
            if services.contains(.outlets) {
                group.addTask {
                    // The outlets' state reads run in this group of their own: a slow one outlives its poll.
                    await withDiscardingTaskGroup { reads in
                        var pace = PollPace(interval: self.configuration.outletsInterval)
                        while !Task.isCancelled {
                            let started = self.services.clock.now
                            await self.outlets.poll(in: &reads)
                            await self.services.clock.sleep(until: started + pace.next(afterSuccess: self.answered(.outlets)))
                        }
                    }
                }
            }
        }
    }

    private func loop(_ service: BellasReefService, every interval: Duration, _ poll: @Sendable () async -> Void) async {
        var pace = PollPace(interval: interval)
        while !Task.isCancelled {
            let started = services.clock.now
            await poll()
            await services.clock.sleep(until: started + pace.next(afterSuccess: answered(service)))
        }
    }

    /// Whether `service`'s last poll was answered.
    private func answered(_ service: BellasReefService) -> Bool {
        services.state.read { $0.services[service]?.available ?? false }
    }

    /// The one place state goes out: after every change, in the order the changes were made.
    private func publishChanges(_ context: IntegrationContext) async {
        let discovery = ReefDiscovery(
            topics: context.topics, services: configuration.services, hasFeed: configuration.feed != nil,
            guarded: configuration.probeGuard?.probes ?? [], interlocks: configuration.interlocks)
        published.withLock { $0 = ChangedState(inheritingFrom: context) }
        while !Task.isCancelled {
            let pending = context.timers.pending
            let now = services.clock.wallNow
            let (payloads, things, alarmChanges, interlockChanges) = services.state.read { snapshot in
                (ReefPayloads(snapshot: snapshot, services: configuration.services, pending: pending, feed: configuration.feed),
                 snapshot.everyListRead(of: configuration.services) ? ReefDiscovery.Things(snapshot) : nil,
                 probeGuard?.judge(snapshot, now: now) ?? [], interlocks.judge(snapshot, now: now))
            }
            if let probeGuard { probeGuard.announce(alarmChanges, context: context) }
            interlocks.announce(interlockChanges)
            // A hold whose time is up ends at the reading that allows it, not at the timer's next retry.
            if interlocks.awaitsReading { context.timers.retryNow() }
            // Entities first: one whose thing went away leaves Home Assistant before its state is cleared.
            if let things, let entities = runtimeEntities.entities(of: things, discovery.runtime) {
                await context.setRuntimeEntities(entities)
            }
            let messages = payloads.messages + (probeGuard?.messages ?? []) + interlocks.messages(pending: pending)
            for (topic, message) in published.withLock({ $0.changes(replacingAll: messages) }) {
                await context.publish(topic, message)
            }
            if payloads.anyServiceAvailable { context.recordUpstreamSuccess() }
            // Also once a minute, for restores that fell due (their timers change without a poll).
            // With a guard, every few seconds: a probe goes stale by the clock, not by a poll.
            // So too for an interlock that fails safe.
            let byTheClock = probeGuard != nil || interlocks.watchesForLostProbes
            await services.state.changed.wait(atMost: byTheClock ? ReefGuard.recheck : .seconds(60), on: services.clock)
        }
    }

    /// A timer's promise, or a scene's: the feed's end, an interlock's release, or an outlet back
    /// as it was (once no interlock holds it).
    func carryOutRestore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool {
        if timer.key == ReefTopics.feedTimer, let feed { return await feed.restore(timer, context: context) }
        if ReefTopics.interlockKey(ofTimer: timer.key) != nil { return await interlocks.release(timer, context: context) }
        return await interlocks.restoring(timer, context: context) { await self.control.restore(timer) }
    }

    func parse(_ request: CommandRequest) throws(CommandError) -> ReefCommand {
        try ReefCommand.parse(request)
    }

    func lanes(for command: ReefCommand) -> Set<String> {
        // Commands for one outlet run in turn; different outlets at once, so a slow plug holds up no
        // other. Feed mode takes its turn in each lane of its outlets (and in one of its own). An
        // outlet's lane is its id, where the interlocks and restores take their turn too; a command
        // that comes before the outlet list was read takes it once its outlet is found.
        switch command {
        case .setOutlet(let target, _):
            return [services.state.read { $0.outlet(named: target)?.outlet.id } ?? "outlet/\(target)"]
        case .startFeed, .cancelFeed:
            let names = configuration.feed?.outlets.map(\.name) ?? []
            return Set(services.state.read { snapshot in names.compactMap { snapshot.outlet(named: $0)?.outlet.id } })
                .union([ReefTopics.feed])
        case .refresh:
            return [""]
        }
    }

    func handle(_ command: ReefCommand, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        switch command {
        case .setOutlet(let target, let change):
            return try await interlocks.command(on: target, context: context) { () async throws(CommandError) in
                try await control.perform(change, on: target, timers: context.timers)
            }
        case .refresh:
            return await refresh(context)
        case .startFeed(let duration):
            guard let feed else { throw Self.noFeed }
            return try await feed.start(for: duration, context: context)
        case .cancelFeed:
            guard let feed else { throw Self.noFeed }
            return try await feed.cancel(context: context)
        }
    }

    /// Reads everything once, now, and answers with the health of each service.
    private func refresh(_ context: IntegrationContext) async -> JSONValue {
        let services = configuration.services
        await withDiscardingTaskGroup { group in
            group.addTask { await self.core.poll() }
            if services.contains(.temperature) { group.addTask { await self.probes.poll() } }
            if services.contains(.outlets) {
                group.addTask { await withDiscardingTaskGroup { reads in await self.outlets.poll(in: &reads) } }
            }
        }
        return self.services.state.read { ReefPayloads(snapshot: $0, services: services, pending: []).health }
    }

    static let noFeed = CommandError("feed mode is not configured: reef.feed names the outlets it turns off", code: .conflict)

    func shutdown() async {
        await services.upstream.shutdown()
    }
}

extension ReefIntegration: EverydayCommands {
    var everydayCommands: [String] { ReefTopics.everydayCommands }
}
