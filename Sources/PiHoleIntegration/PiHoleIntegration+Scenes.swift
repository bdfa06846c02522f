import BridgeCore
import Logging
import PiHoleAPI

/// Scene parts: a group on or off, a client's groups, and a pause of one Pi-hole or all. Each is
/// the Pi-hole command of the same name, timed; a pause is ended by FTL's own timer, and the
/// scene's OFF turns blocking back on where it was on before.
extension PiHoleIntegration: SceneTargets {
    var scenePartKinds: Set<String> { [PiHoleTopics.groupPart, PiHoleTopics.clientPart, PiHoleTopics.pausePart] }

    func sceneCommand(for part: ScenePart, until: Duration) throws(ConfigError) -> PiHoleCommand {
        let item = part.item
        switch part.kind {
        case PiHoleTopics.groupPart:
            _ = try item.allowing([part.kind, "enabled"])
            guard item.contains("enabled") else { throw ConfigError(key: item.keyPath("enabled"), "a group part needs enabled: true or false") }
            return .group(part.target, SwitchCommand(enabled: try item.bool("enabled", default: true), duration: until), .all)
        case PiHoleTopics.clientPart:
            _ = try item.allowing([part.kind, "groups"])
            guard let groups = try item.stringList("groups"), (1...ClientChange.maximumGroups).contains(groups.count) else {
                throw ConfigError(key: item.keyPath("groups"), "a client part needs groups: a list of 1 to \(ClientChange.maximumGroups) group names")
            }
            return .client(part.target, .groups(groups, duration: until, create: false), .all)
        default:
            _ = try item.allowing([part.kind, "pause"])
            let target: PiHoleCommand.Target
            if part.target == "all" {
                target = .all
            } else if instances.contains(where: { $0.id == part.target }) {
                target = .instance(part.target)
            } else {
                throw ConfigError(key: item.keyPath(part.kind), "must be all or a configured Pi-hole (\(instances.map(\.id).joined(separator: ", "))), got '\(part.target)'")
            }
            return .pause(seconds: try item.int("pause", default: configuration.defaultPause, in: 1...PiHoleCommand.maximumPause), target: target)
        }
    }

    /// A timer's promise, or a scene's: a group's state, a client's groups, or blocking back on;
    /// in its Pi-hole's turn, in the line of the commands for that Pi-hole, unless a command for
    /// it came first while it waited.
    func carryOutRestore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool {
        await context.restoreInTurn(timer, of: Set([timer.restore["pihole"]?.stringValue].compactMap { $0 })) {
            if timer.key.hasPrefix("client/") { return await restoreClient(timer) }
            if timer.key.hasPrefix(Self.blockingRestorePrefix) { return await restoreBlocking(timer) }
            return await restoreGroup(timer)
        }
    }

    static let blockingRestorePrefix = "blocking/"

    /// For a scene's pause: blocking back on at the scene's end, on a Pi-hole where it was on.
    func promiseBlocking(of instance: PiHoleInstance, timers: IntegrationTimers) {
        timers.promiseToScene(key: Self.blockingRestorePrefix + instance.id) {
            instance.snapshot.blocking == .enabled ? ["pihole": .string(instance.id), "blocking": true] : nil
        }
    }

    private func restoreBlocking(_ timer: PersistedTimer) async -> Bool {
        guard let id = timer.restore["pihole"]?.stringValue, let instance = instances.first(where: { $0.id == id }) else { return true }
        do {
            _ = try await instance.setBlocking(true, timer: nil)
            publishRequests.request(.parts([id]))
            logger.info("scene ended: blocking on again", metadata: ["pihole": "\(id)"])
            return true
        } catch {
            logger.warning("blocking could not be turned on again yet; trying again shortly", metadata: ["pihole": "\(id)", "error": "\(error)"])
            return false
        }
    }
}

extension PiHoleIntegration {
    /// A group or client part names one that some Pi-hole has; a pause names nothing upstream.
    func checkSceneTarget(_ part: ScenePart) async throws(ConfigError) {
        guard part.kind != PiHoleTopics.pausePart else { return }
        await refreshClientsAndGroups()
        let isGroup = part.kind == PiHoleTopics.groupPart
        // No Pi-hole answered: the part is checked when the scene runs.
        guard instances.contains(where: { isGroup ? $0.snapshot.details.groups != nil : $0.snapshot.details.clients != nil }) else { return }
        if isGroup, groupHolders(part.target) == nil {
            throw ConfigError(key: part.item.keyPath(part.kind), "no Pi-hole has a group '\(part.target)' (groups: \(groups.withLock(\.keyList)))")
        }
        if !isGroup, clientHolders(part.target) == nil {
            throw ConfigError(
                key: part.item.keyPath(part.kind), "no Pi-hole has the client '\(part.target)' configured (clients: \(clientRegistry.withLock(\.keyList)))")
        }
    }
}
