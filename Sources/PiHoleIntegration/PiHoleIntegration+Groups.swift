import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PiHoleAPI

/// Groups on and off, timed: a child's devices in a group of their own, their block lists off
/// for an hour. A timed switch restores the group afterwards, even across a restart.
extension PiHoleIntegration {
    static let defaultGroupRefusal = #"the Default group holds every device without a group of its own: disabling it changes every device; send {"enabled":false,"force":true} to do it anyway"#

    func switchGroup(
        _ keyOrName: String, _ change: SwitchCommand, _ target: PiHoleCommand.Target, timers: IntegrationTimers
    ) async throws(CommandError) -> JSONValue {
        var found = groupHolders(keyOrName)
        if found == nil {
            // Not read yet, or made on the Pi-hole since the last read: read the groups now rather than refuse.
            await withDiscardingTaskGroup { group in
                for instance in instances { group.addTask { await instance.refreshDetails(self.configuration.detailSchedule, forcing: [.groups]) } }
            }
            publishRequests.request()
            updateGroupRegistry()
            found = groupHolders(keyOrName)
        }
        guard let (sample, holders) = found else {
            throw CommandError("unknown group '\(keyOrName.prefix(80))' (groups: \(groups.withLock(\.keyList)))", code: .unknownTarget)
        }
        let name = sample.group.name
        if case .instance(let id) = target, !holders.contains(id) {
            throw CommandError("\(id) has no group '\(name)'", code: .notFound)
        }
        if sample.group.isDefault, !change.enabled, !change.flags.contains("force") {
            throw CommandError(Self.defaultGroupRefusal, code: .conflict)
        }
        defer { refreshDetailsSoon([.groups]) }
        return try await forEach(target, among: instances.filter { holders.contains($0.id) }) { instance in
            let key = PiHoleGroupRegistry.timerKey(pihole: instance.id, name: name)
            let group = try await timers.change(key: key, timedFor: change.duration) { pending in
                var previous = pending?["enabled"]?.boolValue
                if previous == nil { previous = try await instance.currentGroup(name)?.enabled }
                guard let previous else { throw CommandError("\(instance.id): the group '\(name)' is gone", code: .notFound) }
                return ["pihole": .string(instance.id), "group": .string(name), "enabled": .bool(previous), "set": .bool(change.enabled)]
            } _: {
                try await instance.setGroup(name, enabled: change.enabled)
            }
            return PiHoleGroupRegistry.Entry(pihole: instance.id, key: sample.key, group: group, restore: timers.pending(key: key)).payload
        }
    }

    /// Carries out a timed group switch's promise, whatever was changed meanwhile (the log says
    /// so). - Returns: `false` to try again later (the Pi-hole is away).
    func restoreGroup(_ timer: PersistedTimer) async -> Bool {
        guard let id = timer.restore["pihole"]?.stringValue, let name = timer.restore["group"]?.stringValue,
              let enabled = timer.restore["enabled"]?.boolValue
        else {
            logger.error("a saved Pi-hole timer is not understood and is dropped", metadata: ["timer": "\(timer.restore.encodedString())"])
            return true
        }
        var metadata: Logger.Metadata = ["pihole": "\(id)", "group": "\(name)", "enabled": "\(enabled)"]
        guard let instance = instances.first(where: { $0.id == id }) else {
            logger.warning("a timed restore is for a Pi-hole no longer configured; dropped", metadata: metadata)
            return true
        }
        defer {
            refreshDetailsSoon([.groups])
            publishRequests.request()
        }
        do {
            _ = try await instance.setGroup(name, enabled: enabled)
            logger.info("timed command ended: group restored", metadata: metadata)
            return true
        } catch let error as PiHoleError where error.code == .notFound {
            metadata["error"] = "\(error)"
            logger.warning("the group of a timed command is gone; nothing to restore", metadata: metadata)
            return true
        } catch {
            metadata["error"] = "\(error)"
            logger.warning("timed restore failed; trying again shortly", metadata: metadata)
            return false
        }
    }

    /// The group a command names, and the Pi-holes that have it.
    func groupHolders(_ keyOrName: String) -> (sample: PiHoleGroupRegistry.Entry, holders: Set<String>)? {
        groups.withLock { registry in
            guard let name = registry.name(for: keyOrName), let sample = registry.entries.first(where: { $0.group.name == name }) else {
                return nil
            }
            return (sample, Set(registry.entries.filter { $0.group.name == name }.map(\.pihole)))
        }
    }

    func updateGroupRegistry() {
        let read = instances.map { (pihole: $0.id, groups: $0.snapshot.details.groups) }
        groups.withLock { $0.update(read) { _ in nil } }
    }
}
