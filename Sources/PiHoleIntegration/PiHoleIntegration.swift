import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Synchronization

/// Pi-hole v6 on MQTT: blocking state, pause and resume, allow and deny lists, statistics,
/// groups (timed), recently blocked domains, versions and admin actions.
final class PiHoleIntegration: Integration, HomeAssistantEntities, ConfigurationChecks {
    let name = PiHoleTopics.name
    let commandFilters = PiHoleTopics.commandFilters
    let hasRuntimeEntities = true
    let configuration: PiHoleConfiguration
    let instances: [PiHoleInstance]
    let logger: Logger
    let clock: any BridgeClock
    let groups = Mutex(PiHoleGroupRegistry())
    let clientRegistry = Mutex(PiHoleClientRegistry())
    /// The group and client entities, built and set only when the things they are made of change.
    private let runtimeEntities = RuntimeEntityBuilder<PiHoleDiscovery.RuntimeThings>()
    /// Wakes the blocking poll to plan again: after a command (a pause may end before the next poll).
    let replanPoll = Wakeup()
    /// Wakes the slower reads early, with the reads a command made stale.
    let detailsNow = Wakeup()
    let forcedDetails = Mutex(Set<PiHoleDetailRead>())
    /// Asks the one publishing task to publish what changed: polls, commands and restores all end
    /// there, so that state goes out in order. A command on the blocking asks for its Pi-holes.
    let publishRequests = PublishRequests<String>()

    /// Re-reads this long after a pause's end, so `enabled` shows up about when the Pi-hole
    /// resumes (it flips a little after the timer) rather than a whole poll later.
    static let resumeCheckDelay: Duration = .milliseconds(300)
    static let minimumRecheck: Duration = .milliseconds(250)

    init(configuration: PiHoleConfiguration, environment: IntegrationEnvironment) {
        self.configuration = configuration
        logger = environment.logger
        clock = environment.clock
        instances = configuration.instances.map {
            PiHoleInstance(
                id: $0.id, connection: $0.connection, logger: environment.logger,
                metrics: environment.metrics.upstream(integration: PiHoleTopics.name, instance: $0.id), clock: environment.clock)
        }
    }

    let configurationHints = [
        "use an app password (Settings → Web interface / API → Configure app password): it works with "
            + "two-factor authentication, which a web password does not",
    ]

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        PiHoleDiscovery(topics: topics, configuration: configuration).entities
    }

    func run(context: IntegrationContext) async {
        // Read once before anything is published or read further: nothing goes out as `unknown`
        // that one poll would have known.
        await refreshBlocking()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.pollBlocking() }
            group.addTask { await self.pollDetails() }
            group.addTask { await self.publishWhenAsked(context) }
            group.addTask { await context.timers.run { timer in await self.carryOutRestore(timer, context: context) } }
        }
    }

    func shutdown() async {
        await withDiscardingTaskGroup { group in
            for instance in instances { group.addTask { await instance.shutdown() } }
        }
    }

    /// Reads every Pi-hole each poll interval (sooner after a read that failed: `PollPace`), and
    /// soon after a pause ends. A command's signal wakes the loop to plan again (a pause it just
    /// started may end before the next poll), not to read: the command's answer carried the state
    /// it changed. Reading every Pi-hole after each command multiplied a burst's requests by the
    /// number of Pi-holes. A re-plan only ever brings the planned poll closer, so a stream of
    /// commands cannot put it off.
    private func pollBlocking() async {
        var lastPoll = clock.now
        var pace = PollPace(interval: configuration.pollInterval)
        // `run` read once just before.
        var wait = pace.next(afterSuccess: instances.allSatisfy(\.snapshot.available))
        var planned: ContinuousClock.Instant?
        while !Task.isCancelled {
            let due = min(planned ?? clock.now + .seconds(86_400), nextPollDue(after: lastPoll, wait: wait))
            planned = due
            if due > clock.now {
                await replanPoll.wait(until: due, on: clock)
                if clock.now < due { continue }
            }
            await refreshBlocking()
            lastPoll = clock.now
            wait = pace.next(afterSuccess: instances.allSatisfy(\.snapshot.available))
            planned = nil
        }
    }

    private func refreshBlocking() async {
        await withDiscardingTaskGroup { group in
            for instance in instances { group.addTask { await instance.refresh() } }
        }
        publishRequests.request()
    }

    private func pollDetails() async {
        let schedule = configuration.detailSchedule
        while !Task.isCancelled {
            let forced = forcedDetails.withLock { forced in
                defer { forced = [] }
                return forced
            }
            await withDiscardingTaskGroup { group in
                for instance in instances { group.addTask { await instance.refreshDetails(schedule, forcing: forced) } }
            }
            publishRequests.request()
            var wait = schedule.stats
            for instance in instances { wait = min(wait, await instance.nextDetailsDue(schedule)) }
            // A Pi-hole that is away is not read, so its reads stay due: look again a poll later.
            await detailsNow.wait(atMost: max(wait, configuration.pollInterval), on: clock)
        }
    }

    /// Has the slower reads in `reads` done now: a command changed what they show.
    func refreshDetailsSoon(_ reads: Set<PiHoleDetailRead>) {
        forcedDetails.withLock { $0.formUnion(reads) }
        detailsNow.signal()
    }

    private func publishWhenAsked(_ context: IntegrationContext) async {
        let discovery = PiHoleDiscovery(topics: context.topics, configuration: configuration)
        await context.publishWhenAsked(publishRequests) { ids in
            let snapshots = instances.map { (id: $0.id, snapshot: $0.snapshot) }
            if let ids {
                return .part(PiHolePublication.blockingMessages(of: ids, in: snapshots), upstreamAnswered: snapshots.contains { $0.snapshot.available })
            }
            // A restore carried out is taken off the list just after this publish: hide it already.
            let pending = { (key: String) in context.timers.pending(key: key).flatMap { $0.dueAt > context.clock.wallNow ? $0 : nil } }
            let registry = groups.withLock { registry in
                registry.update(snapshots.map { ($0.id, $0.snapshot.details.groups) }, pending: pending)
                return registry
            }
            let clients = clientRegistry.withLock { registry in
                registry.update(snapshots.map { ($0.id, $0.snapshot.details.clients, $0.snapshot.details.groups) }, pending: pending)
                return registry
            }
            // Until every Pi-hole's groups and clients have been read once, a Pi-hole away at start would lose their entities.
            let thingsKnown = snapshots.allSatisfy { $0.snapshot.details.groups != nil && $0.snapshot.details.clients != nil }
            let things = PiHoleDiscovery.RuntimeThings(
                groups: registry.entries.map(PiHoleDiscovery.GroupThing.init), clients: PiHoleDiscovery.ClientThing.all(in: clients))
            return StatePublication(
                messages: PiHolePublication(snapshots: snapshots, groups: registry, clients: clients).messages,
                upstreamAnswered: snapshots.contains { $0.snapshot.available },
                runtimeEntities: thingsKnown ? runtimeEntities.entities(of: things, discovery.runtimeEntities) : nil)
        }
    }

    /// A poll interval after the last poll, or sooner where a paused Pi-hole resumes.
    private func nextPollDue(after lastPoll: ContinuousClock.Instant, wait: Duration) -> ContinuousClock.Instant {
        var due = lastPoll + wait
        for instance in instances {
            guard let resumesAt = instance.snapshot.currentResumesAt else { continue }
            let untilResume = Duration.milliseconds(Int64(resumesAt.timeIntervalSince(clock.wallNow) * 1000)) + Self.resumeCheckDelay
            due = min(due, clock.now + max(untilResume, Self.minimumRecheck))
        }
        return due
    }
}

extension PiHoleIntegration: EverydayCommands {
    var everydayCommands: [String] { PiHoleTopics.everydayCommands }
}
