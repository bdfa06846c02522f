import BellasReefAPI
import BridgeCore
import Logging
import Synchronization

/// Bella's Reef on MQTT: the controller's health and load, every temperature probe, every
/// smart outlet's state and power, and switching outlets, for good or for a while.
final class ReefIntegration: Integration {
    let name = ReefTopics.name
    let commandFilters = ReefTopics.commandFilters
    let hasRuntimeEntities = true
    let configuration: ReefConfiguration
    private let services: ReefServices
    private let core: ReefCorePoller
    private let probes: ReefProbePoller
    private let outlets: ReefOutletPoller
    private let control: ReefOutletControl
    /// What went out last: only changes are published, and things that went away are cleared.
    private let published = Mutex(ChangedState())
    /// The runtime entities, built and set only when the outlets and probes they are made of change.
    private let runtimeEntities = RuntimeEntityBuilder<ReefDiscovery.Things>()

    init(configuration: ReefConfiguration, environment: IntegrationEnvironment) {
        self.configuration = configuration
        var logger = environment.logger
        logger[metadataKey: "integration"] = "\(ReefTopics.name)"
        let upstream = ReefUpstream(
            connection: configuration.connection, tls: configuration.tls, logger: logger, metrics: environment.metrics)
        services = ReefServices(upstream: upstream, state: ReefState(logger: logger))
        core = ReefCorePoller(services: services)
        probes = ReefProbePoller(services: services, logger: logger)
        outlets = ReefOutletPoller(services: services)
        control = ReefOutletControl(services: services, poller: outlets, logger: logger)
    }

    let configurationHints = [
        "temperature_url and outlets_url default to the core's host on ports 8004 and 8005; write false to turn one off",
        "a plug's own connection failures take the controller 12–18 s: with request_timeout below that, a command to a dead "
            + "plug is answered with a timeout instead of the controller's outlet_connection_error",
    ]

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        ReefDiscovery(topics: topics, services: configuration.services).configured
    }

    func run(context: IntegrationContext) async {
        let services = configuration.services
        await withDiscardingTaskGroup { group in
            group.addTask { await self.publishChanges(context) }
            group.addTask { await context.timers.run { await self.control.restore($0) } }
            group.addTask { await self.loop(self.configuration.metricsInterval) { await self.core.poll() } }
            if services.contains(.temperature) {
                group.addTask { await self.loop(self.configuration.temperatureInterval) { await self.probes.poll() } }
            }
            if services.contains(.outlets) {
                group.addTask {
                    // The outlets' state reads run in this group of their own: a slow one outlives its poll.
                    await withDiscardingTaskGroup { reads in
                        while !Task.isCancelled {
                            await self.outlets.poll(in: &reads)
                            try? await Task.sleep(for: self.configuration.outletsInterval)
                        }
                    }
                }
            }
        }
    }

    private func loop(_ interval: Duration, _ poll: @Sendable () async -> Void) async {
        while !Task.isCancelled {
            await poll()
            try? await Task.sleep(for: interval)
        }
    }

    /// The one place state goes out: after every change, in the order the changes were made.
    private func publishChanges(_ context: IntegrationContext) async {
        let discovery = ReefDiscovery(topics: context.topics, services: configuration.services)
        published.withLock { $0 = ChangedState(inheritingFrom: context) }
        while !Task.isCancelled {
            let pending = context.timers.pending
            let (payloads, things) = services.state.read { snapshot in
                (ReefPayloads(snapshot: snapshot, services: configuration.services, pending: pending),
                 snapshot.everyListRead(of: configuration.services) ? ReefDiscovery.Things(snapshot) : nil)
            }
            // Entities first: one whose thing went away leaves Home Assistant before its state is cleared.
            if let things, let entities = runtimeEntities.entities(of: things, discovery.runtime) {
                await context.setRuntimeEntities(entities)
            }
            for (topic, message) in published.withLock({ $0.changes(replacingAll: payloads.messages) }) {
                await context.publish(topic, message)
            }
            if payloads.anyServiceAvailable { context.recordUpstreamSuccess() }
            // Also once a minute, for restores that fell due (their timers change without a poll).
            await services.state.changed.wait(atMost: .seconds(60))
        }
    }

    func parse(_ request: CommandRequest) throws(CommandError) -> ReefCommand {
        try ReefCommand.parse(request)
    }

    func lanes(for command: ReefCommand) -> Set<String> {
        // Commands for one outlet run in turn; different outlets at once, so a slow plug holds up no other.
        guard case .setOutlet(let target, _) = command else { return [""] }
        return [services.state.read { $0.outlet(matching: target)?.outlet.id } ?? "outlet/\(target)"]
    }

    func handle(_ command: ReefCommand, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        switch command {
        case .setOutlet(let target, let change):
            return try await control.perform(change, on: target, timers: context.timers)
        case .refresh:
            return await refresh(context)
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

    func shutdown() async {
        await services.upstream.shutdown()
    }
}
