import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

extension PiHoleIntegration: CommandTimeLimits {
    /// Each Pi-hole is a lane: commands to different Pi-holes run at once, and one for all of them
    /// takes its turn in each. Gravity (minutes long) and the query log (read only) have lanes of
    /// their own, so they hold back no pause.
    func lanes(for command: PiHoleCommand) -> Set<String> {
        let ids = targets(of: command).map(\.id)
        switch command {
        case .action(.gravity, _): return Set(ids.map { "gravity/\($0)" })
        case .recentlyBlocked: return ["recently_blocked"]
        case .search: return ["search"]
        default: return Set(ids)
        }
    }

    func timeLimit(for command: PiHoleCommand) -> Duration? {
        guard case .action(.gravity, _) = command else { return nil }
        return configuration.gravityTimeout + .seconds(30)
    }

    func handle(_ command: PiHoleCommand, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        defer {
            replanPoll.signal()
            publishRequests.request(command.changesOnlyBlocking ? .parts(targets(of: command).map(\.id)) : .wholeState)
        }
        let target = command.target
        switch command {
        case .pause(let seconds, _):
            return try await forEach(target) { instance in
                self.promiseBlocking(of: instance, timers: context.timers)
                return try await instance.setBlocking(false, timer: seconds).payload(id: instance.id)
            }
        case .resume:
            return try await forEach(target) { try await $0.setBlocking(true, timer: nil).payload(id: $0.id) }
        case .setBlocking(let enabled, _):
            return try await forEach(target) { try await $0.setBlocking(enabled, timer: nil).payload(id: $0.id) }
        case .refresh:
            refreshDetailsSoon(Set(PiHoleDetailRead.allCases))
            return try await forEach(target) { instance in
                let snapshot = await instance.refresh()
                guard snapshot.available else { throw CommandError("\(instance.id): \(snapshot.error ?? "unavailable")", code: .upstreamUnavailable) }
                return snapshot.payload(id: instance.id)
            }
        case .domain(let change, _):
            return try await forEach(target) { instance in
                try await instance.apply(change)
                return ["domain": .string(change.domain), "list": .string(change.list.rawValue), "kind": .string(change.kind.rawValue)]
            }
        case .group(let keyOrName, let change, _):
            return try await switchGroup(keyOrName, change, target, timers: context.timers)
        case .client(let keyOrClient, let change, _):
            return try await changeClient(keyOrClient, change, target, timers: context.timers)
        case .recentlyBlocked(let question, _):
            return try await recentlyBlocked(question, target)
        case .search(let question, _):
            return try await search(question, target)
        case .action(let action, _):
            let answer = try await forEach(target) { try await $0.perform(action, gravityTimeout: self.configuration.gravityTimeout) }
            // New block lists, or an emptied query log: the statistics changed.
            if action != .restartDNS { refreshDetailsSoon([.stats]) }
            return answer
        }
    }

    func parse(_ request: CommandRequest) throws(CommandError) -> PiHoleCommand {
        try PiHoleCommand.parse(request, instanceIDs: instances.map(\.id), defaultPause: configuration.defaultPause)
    }

    func targets(of command: PiHoleCommand) -> [PiHoleInstance] {
        instances.filter { command.target == .all || command.target == .instance($0.id) }
    }

    /// Runs `action` on the targeted Pi-holes at once and answers with each one's result. Any
    /// failure fails the command, naming the Pi-hole; the others still ran.
    func forEach(
        _ target: PiHoleCommand.Target, among candidates: [PiHoleInstance]? = nil,
        // Untyped `throws` on purpose: a typed-throws async closure run in a task group was
        // miscompiled in release builds (Swift 6.3.1): empty results, then a crash.
        _ action: @escaping @Sendable (PiHoleInstance) async throws -> JSONValue
    ) async throws(CommandError) -> JSONValue {
        let targets = (candidates ?? instances).filter { target == .all || target == .instance($0.id) }
        if case .instance = target, let only = targets.first {
            // One Pi-hole (every pause, switch and refresh of one) runs in this task: a child task
            // would be a task start and two task switches more on the command's path.
            return try await Self.result(of: action, on: only).get()
        }
        let results = await withTaskGroup(of: (String, Result<JSONValue, CommandError>).self) { group in
            for instance in targets {
                group.addTask { (instance.id, await Self.result(of: action, on: instance)) }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        let failures = targets.compactMap { instance -> CommandError? in
            if case .failure(let error)? = results[instance.id] { return error }
            return nil
        }
        guard failures.isEmpty else { throw CommandError(combining: failures) }
        let data = results.compactMapValues { try? $0.get() }
        if case .instance(let id) = target, let only = data[id] { return only }
        return .object(data)
    }

    private static func result(
        of action: @Sendable (PiHoleInstance) async throws -> JSONValue, on instance: PiHoleInstance
    ) async -> Result<JSONValue, CommandError> {
        do {
            return .success(try await action(instance))
        } catch let error as CommandError {
            return .failure(error)
        } catch {
            return .failure(CommandError(instance.id, failure: error))
        }
    }

    /// Each Pi-hole's blocked queries of the window, merged. A Pi-hole that does not answer is
    /// named in `errors`; the command fails only when none answers.
    private func recentlyBlocked(_ question: RecentlyBlockedRequest, _ target: PiHoleCommand.Target) async throws(CommandError) -> JSONValue {
        let now = Date()
        let (pages, errors) = try await askEach(target) { try await $0.blockedQueries(question, now: now) }
        var answer = RecentlyBlockedAnswer(request: question, pages: pages.map { (pihole: $0.0, page: $0.1) })
        answer.errors = errors
        return answer.payload
    }
}

extension PiHoleCommand {
    var target: Target {
        switch self {
        case .pause(_, let target), .resume(let target), .setBlocking(_, let target), .refresh(let target),
            .domain(_, let target), .group(_, _, let target), .client(_, _, let target), .recentlyBlocked(_, let target),
            .search(_, let target),
            .action(_, let target):
            target
        }
    }
}
