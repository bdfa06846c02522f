import BridgeCore
import Foundation
import Logging
import Synchronization

/// Pi-hole v6 on MQTT: blocking state, pause and resume, allow and deny lists.
final class PiHoleIntegration: Integration {
    let name = PiHoleTopics.name
    let commandFilters = PiHoleTopics.commandFilters
    let configuration: PiHoleConfiguration
    let instances: [PiHoleInstance]
    private let wakeup = Wakeup()
    /// What went out last, so an unchanged state is not published again every poll.
    private let published = Mutex(ChangedState())

    /// Re-reads this long after a pause's end, so `enabled` shows up about when the Pi-hole
    /// resumes (it flips a little after the timer) rather than a whole poll later.
    static let resumeCheckDelay: Duration = .milliseconds(300)
    static let minimumRecheck: Duration = .milliseconds(250)

    init(configuration: PiHoleConfiguration, environment: IntegrationEnvironment) {
        self.configuration = configuration
        instances = configuration.instances.map {
            PiHoleInstance(
                id: $0.id, connection: $0.connection, logger: environment.logger,
                metrics: environment.metrics.upstream(integration: PiHoleTopics.name, instance: $0.id))
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
        while !Task.isCancelled {
            await withDiscardingTaskGroup { group in
                for instance in instances { group.addTask { await instance.refresh() } }
            }
            await publish(context)
            await wakeup.wait(atMost: await nextPollDelay())
        }
    }

    func handle(_ request: CommandRequest, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        let command = try PiHoleCommand.parse(request, instanceIDs: instances.map(\.id), defaultPause: configuration.defaultPause)
        defer { wakeup.signal() }
        switch command {
        case .pause(let seconds, let target):
            return try await forEach(target, context) { instance in
                try await instance.setBlocking(false, timer: seconds).payload(id: instance.id)
            }
        case .resume(let target):
            return try await forEach(target, context) { instance in
                try await instance.setBlocking(true, timer: nil).payload(id: instance.id)
            }
        case .setBlocking(let enabled, let target):
            return try await forEach(target, context) { instance in
                try await instance.setBlocking(enabled, timer: nil).payload(id: instance.id)
            }
        case .refresh(let target):
            return try await forEach(target, context) { instance in
                let snapshot = await instance.refresh()
                guard snapshot.available else { throw CommandError("\(instance.id): \(snapshot.error ?? "unavailable")") }
                return snapshot.payload(id: instance.id)
            }
        case .domain(let change, let target):
            return try await forEach(target, context) { instance in
                try await instance.apply(change)
                return ["domain": .string(change.domain), "list": .string(change.list.rawValue), "kind": .string(change.kind.rawValue)]
            }
        }
    }

    func shutdown() async {
        await withDiscardingTaskGroup { group in
            for instance in instances { group.addTask { await instance.shutdown() } }
        }
    }

    /// Runs `action` on the targeted Pi-holes at once, publishes the new state, and answers with
    /// each one's result. Any failure fails the command, naming the Pi-hole; the others still ran.
    private func forEach(
        _ target: PiHoleCommand.Target, _ context: IntegrationContext,
        // Untyped `throws` on purpose: a typed-throws async closure run in a task group was
        // miscompiled in release builds (Swift 6.3.1): empty results, then a crash.
        _ action: @escaping @Sendable (PiHoleInstance) async throws -> JSONValue
    ) async throws(CommandError) -> JSONValue {
        let targets = instances.filter { target == .all || target == .instance($0.id) }
        let results = await withTaskGroup(of: (String, Result<JSONValue, CommandError>).self) { group in
            for instance in targets {
                group.addTask {
                    do {
                        return (instance.id, .success(try await action(instance)))
                    } catch let error as CommandError {
                        return (instance.id, .failure(error))
                    } catch {
                        return (instance.id, .failure(CommandError("\(instance.id): \(error)")))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        await publish(context)
        let failures = targets.compactMap { instance -> String? in
            if case .failure(let error)? = results[instance.id] { return error.message }
            return nil
        }
        guard failures.isEmpty else { throw CommandError(failures.joined(separator: "; ")) }
        let data = results.compactMapValues { try? $0.get() }
        if case .instance(let id) = target, let only = data[id] { return only }
        return .object(data)
    }

    private func publish(_ context: IntegrationContext) async {
        var snapshots: [(id: String, snapshot: PiHoleSnapshot)] = []
        for instance in instances { snapshots.append((instance.id, await instance.snapshot)) }
        var messages: [(topic: String, message: StateMessage)] = []
        for (id, snapshot) in snapshots {
            messages.append((PiHoleTopics.instance(id), .json(snapshot.payload(id: id))))
            messages.append((PiHoleTopics.instanceAvailability(id), .availability(snapshot.available)))
            if snapshot.available { context.recordUpstreamSuccess() }
        }
        messages.append((PiHoleTopics.aggregate, .json(PiHoleAggregate(snapshots).payload)))
        messages.append((PiHoleTopics.availability, .availability(snapshots.contains { $0.snapshot.available })))
        for (topic, message) in published.withLock({ $0.changes(messages) }) {
            await context.publish(topic, message)
        }
    }

    /// The regular poll interval, or sooner when a pause is about to end.
    private func nextPollDelay() async -> Duration {
        var delay = configuration.pollInterval
        for instance in instances {
            guard let resumesAt = await instance.snapshot.currentResumesAt else { continue }
            let untilResume = Duration.milliseconds(Int64(resumesAt.timeIntervalSinceNow * 1000)) + Self.resumeCheckDelay
            delay = min(delay, max(untilResume, Self.minimumRecheck))
        }
        return delay
    }
}
