#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Scenes across integrations: `scene/<key>/set` ON applies every part, each in its own
/// integration's lanes; OFF, or the time running out, restores each part to what it had before
/// the ON. One persisted promise per scene holds every part's restore, across restarts.
///
/// A part that fails does not undo the others: they stay applied, the answer is an error that
/// lists every part, and OFF restores what was applied.
final class SceneIntegration: Integration, HomeAssistantEntities, ConfigurationChecks {
    let name = SceneTopics.name
    let commandFilters = SceneTopics.commandFilters
    let scenes: [Scene]
    /// The integrations the parts were read by, for the start's check of their targets.
    private let participants: [String: any SceneTargets]
    /// Signalled after every change to a promise, for the state to go out.
    private let changed = Wakeup()

    init(scenes: [Scene], participants: [any Integration]) {
        self.scenes = scenes
        self.participants = Dictionary(participants.compactMap { $0 as? any SceneTargets }.map { ($0.name, $0) }) { first, _ in first }
    }

    func checkConfigurationWithUpstream() async throws(ConfigError) {
        for part in scenes.flatMap(\.parts) { try await participants[part.integration]?.checkSceneTarget(part) }
    }

    /// A restore that could not be carried out is tried again after this long.
    static let retryDelay: Duration = .seconds(15)

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        SceneDiscovery(topics: topics).entities(scenes)
    }

    func run(context: IntegrationContext) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await context.timers.run { await self.carryOutRestore($0, context: context) } }
            group.addTask { await self.publishStates(context) }
        }
    }

    func parse(_ request: CommandRequest) throws(CommandError) -> SceneCommand {
        try SceneCommand.parse(request, scenes: scenes.map(\.key))
    }

    /// One scene at a time: its commands, and its time running out (`carryOutRestore`).
    func lanes(for command: SceneCommand) -> Set<String> { [command.key] }

    func handle(_ command: SceneCommand, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
        let scene = scenes.first { $0.key == command.key }!
        // In a task of its own, which the command's time limit does not cancel: parts applied
        // upstream are always written into the promise, even when the answer came too late. The
        // command keeps the scene's turn until it ends: the time limit waits for it.
        let result = await Task(executorPreference: BridgeEventLoop.taskExecutor) {
            switch command {
            case .on(_, let duration): await self.turnOn(scene, for: duration, context: context)
            case .off: await self.turnOff(scene, context: context)
            }
        }.value
        changed.signal()
        return try result.get()
    }

    /// The scene's time ran out, or restores left over are tried again.
    func carryOutRestore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool {
        await context.inTurn(of: [timer.key]) { await end(timer, context: context) }
    }

    /// Nothing upstream: the parts' integrations hold the sessions.
    func shutdown() async {}

    // MARK: ON and OFF

    private func turnOn(_ scene: Scene, for duration: Duration?, context: IntegrationContext) async -> Result<JSONValue, CommandError> {
        var promise = context.timers.pending(key: scene.key).map(ScenePromise.init) ?? ScenePromise(restores: [], parts: [])
        let dueAt = duration.map { context.clock.wallNow.addingTimeInterval(Double($0.components.seconds)) } ?? ScenePromise.untilTurnedOff
        let outcomes = await withTaskGroup(of: (Int, JSONValue, [ScenePromise.Restore]).self) { group in
            for (index, part) in scene.parts.enumerated() {
                let earlier = promise.restores(of: part.integration)
                group.addTask {
                    let (answer, restores) = await self.apply(part, earlier: earlier, dueAt: dueAt, lasting: duration, context: context)
                    return (index, answer, restores)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }
        }
        for (_, _, restores) in outcomes { restores.forEach { promise.add($0) } }
        promise.parts = outcomes.map(\.1)
        promise.ending = false
        let failed = outcomes.filter { $0.1["status"] != "ok" }.map { scene.parts[$0.0].label }
        if failed.count == scene.parts.count, promise.restores.isEmpty {
            return .failure(CommandError(
                "no part of '\(scene.name)' could be applied; the scene stays off", code: Self.firstFailure(promise.parts),
                data: ["state": "off", "parts": .array(promise.parts)]))
        }
        do throws(CommandError) {
            let delay = duration ?? .seconds(Int64(ScenePromise.untilTurnedOff.timeIntervalSince(context.clock.wallNow)))
            try await context.timers.set(key: scene.key, restore: promise.json, after: delay)
        } catch {
            // The parts are applied, but nothing would undo them: say so, and undo them now.
            _ = await restore(promise.restores, context: context)
            return .failure(CommandError("\(error.message); the applied parts were restored at once", code: error.code))
        }
        context.logger.notice("scene on", metadata: ["scene": "\(scene.name)", "failed_parts": "\(failed)"])
        context.publishEvent("scene", ["scene": .string(scene.key), "state": "on", "failed_parts": .array(failed.map(JSONValue.string))])
        let state = payload(scene, context.timers.pending(key: scene.key))
        guard failed.isEmpty else {
            return .failure(CommandError(
                "\(failed.count) of \(scene.parts.count) parts of '\(scene.name)' failed (\(failed.joined(separator: ", "))); "
                    + "the others stay applied and OFF restores them", code: Self.firstFailure(promise.parts), data: state))
        }
        return .success(state)
    }

    /// Carries out one part in its integration's queue. - Returns: the part's answer and what it promised.
    private func apply(
        _ part: ScenePart, earlier: [String: JSONValue], dueAt: Date, lasting duration: Duration?, context: IntegrationContext
    ) async -> (JSONValue, [ScenePromise.Restore]) {
        let named: [String: JSONValue] = ["kind": .string(part.kind), "target": .string(part.target)]
        guard let run = context.peers?(part.integration), let targets = run.integration as? any SceneTargets else {
            return (Self.failed(named, CommandError("\(part.integration) is not running", code: .notReady)), [])
        }
        let capture = ScenePartCapture(earlier: earlier, dueAt: dueAt)
        let prepared: PreparedCommand
        do throws(ConfigError) {
            prepared = try targets.prepareScenePart(part, until: duration ?? TimedCommand.maximum, capture: capture)
        } catch {
            return (Self.failed(named, CommandError("\(error)", code: .unknownTarget)), [])
        }
        let response = await run.queue.perform(prepared, topic: "\(name)/\(part.kind)")
        let restores = capture.restores.map { ScenePromise.Restore(integration: part.integration, key: $0.key, restore: $0.restore) }
        switch response.result {
        case .success(let data):
            return (.object(named.merging(["status": "ok", "data": data ?? .null]) { $1 }), restores)
        case .failure(let error):
            return (Self.failed(named, error), restores)
        }
    }

    private static func failed(_ part: [String: JSONValue], _ error: CommandError) -> JSONValue {
        .object(part.merging(["status": "error", "error": .string(error.message), "code": .string(error.code.rawValue)]) { $1 })
    }

    /// The code of the first part that failed: what a scene that failed answers with.
    private static func firstFailure(_ parts: [JSONValue]) -> CommandErrorCode {
        parts.lazy.compactMap { $0["code"]?.stringValue.flatMap(CommandErrorCode.init(rawValue:)) }.first ?? .upstreamUnavailable
    }

    private func turnOff(_ scene: Scene, context: IntegrationContext) async -> Result<JSONValue, CommandError> {
        guard let timer = context.timers.pending(key: scene.key) else { return .success(payload(scene, nil)) }
        let left = await restore(ScenePromise(timer).restores, context: context)
        do throws(CommandError) {
            if left.isEmpty {
                try await context.timers.cancel(key: scene.key)
            } else {
                try await keepEnding(timer, left, context: context)
            }
        } catch {
            return .failure(error)
        }
        announceOff(scene, left: left, context: context)
        let state = payload(scene, context.timers.pending(key: scene.key))
        guard left.isEmpty else {
            return .failure(CommandError(
                "\(left.count) restores of '\(scene.name)' could not be carried out yet; they are tried again every "
                    + "\(Self.retryDelay.components.seconds) s", code: .upstreamUnavailable, data: state))
        }
        return .success(state)
    }

    /// The scene's time ran out (or a restore left over is tried again). - Returns: whether every
    /// part is restored; if not, the promise now holds only what is left.
    private func end(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool {
        // An ON (or OFF) that had the scene's turn while this waited made its own promise, or kept none.
        guard context.timers.pending(key: timer.key) == timer else { return true }
        let left = await restore(ScenePromise(timer).restores, context: context)
        defer { changed.signal() }
        if let scene = scenes.first(where: { $0.key == timer.key }) { announceOff(scene, left: left, context: context) }
        guard !left.isEmpty else {
            // Dropped here rather than after this returns: the state published next says off.
            await context.timers.complete(timer)
            return true
        }
        try? await keepEnding(timer, left, context: context)
        return false
    }

    private func keepEnding(_ timer: PersistedTimer, _ left: [ScenePromise.Restore], context: IntegrationContext) async throws(CommandError) {
        var promise = ScenePromise(timer)
        promise.restores = left
        promise.ending = true
        try await context.timers.set(key: timer.key, restore: promise.json, after: Self.retryDelay)
    }

    private func announceOff(_ scene: Scene, left: [ScenePromise.Restore], context: IntegrationContext) {
        if left.isEmpty {
            context.logger.notice("scene off: every part restored", metadata: ["scene": "\(scene.name)"])
            context.publishEvent("scene", ["scene": .string(scene.key), "state": "off"])
        } else {
            context.logger.warning("scene ending: restores left to carry out", metadata: [
                "scene": "\(scene.name)", "left": "\(left.map { "\($0.integration) \($0.key)" })",
            ])
        }
    }

    /// Carries out each restore through its integration, all at once. - Returns: those left undone.
    private func restore(_ restores: [ScenePromise.Restore], context: IntegrationContext) async -> [ScenePromise.Restore] {
        await withTaskGroup(of: ScenePromise.Restore?.self) { group in
            for restore in restores {
                group.addTask {
                    guard let run = context.peers?(restore.integration), let targets = run.integration as? any SceneTargets else {
                        context.logger.error("a scene's restore is for an integration no longer configured; dropped", metadata: [
                            "integration": "\(restore.integration)", "key": "\(restore.key)",
                        ])
                        return nil
                    }
                    let timer = PersistedTimer(integration: restore.integration, key: restore.key, restore: restore.restore, dueAt: context.clock.wallNow)
                    return await targets.carryOutRestore(timer, context: run.context) ? nil : restore
                }
            }
            return await group.reduce(into: []) { left, restore in if let restore { left.append(restore) } }
        }
    }

    // MARK: State

    /// `scene/<key>`: `{"state":"on"|"ending"|"off","until","parts"}`.
    func payload(_ scene: Scene, _ timer: PersistedTimer?) -> JSONValue {
        guard let timer else {
            return ["state": "off", "until": .null, "parts": .array(scene.parts.map { ["kind": .string($0.kind), "target": .string($0.target)] })]
        }
        let promise = ScenePromise(timer)
        return [
            "state": promise.ending ? "ending" : "on",
            "until": ScenePromise.lastsUntilOff(timer.dueAt) || promise.ending ? .null : .string(timer.dueAt.iso8601),
            "parts": .array(promise.parts),
        ]
    }

    private func publishStates(_ context: IntegrationContext) async {
        var published = ChangedState(inheritingFrom: context)
        while !Task.isCancelled {
            // Always available: scenes have no upstream of their own (each part answers for its own).
            let messages = [(topic: SceneTopics.availability, message: StateMessage.availability(true))]
                + scenes.map { scene in (topic: SceneTopics.state(scene.key), message: StateMessage.json(payload(scene, context.timers.pending(key: scene.key)))) }
            for (topic, message) in published.changes(replacingAll: messages) { await context.publish(topic, message) }
            await changed.wait(atMost: .seconds(60), on: context.clock)
        }
    }
}

extension SceneIntegration: EverydayCommands {
    var everydayCommands: [String] { SceneTopics.everydayCommands }
}
