import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PiHoleAPI

/// A device's filtering for a while: a configured client put in other groups (or in the bridge's
/// group without lists: paused), and its groups restored exactly when the time is up, even
/// across a restart. One promise per client and Pi-hole: a second timed change keeps the first's.
extension PiHoleIntegration {
    func changeClient(
        _ keyOrClient: String, _ change: ClientChange, _ target: PiHoleCommand.Target, timers: IntegrationTimers
    ) async throws(CommandError) -> JSONValue {
        var found = clientHolders(keyOrClient)
        if found == nil {
            // Not read yet, or configured on the Pi-hole since the last read: read now rather than refuse.
            await refreshClientsAndGroups()
            found = clientHolders(keyOrClient)
        }
        let create = if case .groups(_, _, let create) = change { create } else { false }
        let client: String
        let holders: Set<String>
        if let found {
            (client, holders) = found
        } else {
            guard create else {
                throw CommandError(
                    "unknown client '\(keyOrClient.prefix(80))' (configured: \(clientRegistry.withLock(\.keyList))); "
                        + #"name a new one by its IP, MAC or host name with "create":true to configure it"#, code: .unknownTarget)
            }
            guard ClientAddress.isValid(keyOrClient) else {
                throw CommandError("'\(keyOrClient.prefix(80))' is no IP address, MAC address or host name to configure as a client", code: .unknownTarget)
            }
            (client, holders) = (keyOrClient, [])
        }
        if case .instance(let id) = target, !holders.contains(id), !create {
            throw CommandError("\(id) has no client '\(client)'", code: .notFound)
        }
        let candidates = instances.filter { holders.contains($0.id) || create }
        // Every group resolved on every Pi-hole before anything is written.
        var plans: [String: ClientGroupsPlan] = [:]
        for instance in candidates where target == .all || target == .instance(instance.id) {
            plans[instance.id] = try await plan(change, on: instance)
        }
        defer {
            refreshDetailsSoon([.clients, .groups])
            publishRequests.request()
        }
        let planned = plans
        return try await forEach(target, among: candidates) { instance in
            let plan = planned[instance.id]!
            let key = PiHoleClientRegistry.timerKey(pihole: instance.id, client: client)
            let isConfigured = holders.contains(instance.id)
            let entry = try await timers.change(key: key, timedFor: plan.duration) { pending in
                if let pending { return pending }
                guard isConfigured else { return ["pihole": .string(instance.id), "client": .string(client), "created": true] }
                guard let current = try await instance.measured({ try await $0.clientEntry(client) }) else {
                    throw CommandError("\(instance.id): the client '\(client)' is gone", code: .notFound)
                }
                return [
                    "pihole": .string(instance.id), "client": .string(client),
                    "groups": .array(current.groups.map { .number(Double($0)) }),
                    "group_names": .array(current.groups.map { .string(self.groupName($0, on: instance)) }),
                ]
            } _: {
                isConfigured
                    ? try await instance.measured { try await $0.setClientGroups(client, plan.groupIDs) }
                    : try await instance.measured { try await $0.addClient(client, groupIDs: plan.groupIDs, comment: "configured by home2mqtt") }
            }
            let restore = timers.pending(key: key)
            return [
                "client": .string(entry.client), "groups": .array(plan.groupNames.map(JSONValue.string)),
                "restore_at": restore.map { .string($0.dueAt.iso8601) } ?? .null,
                "restore_to": restore.map { $0.restore["created"] == true ? "unconfigured" : $0.restore["group_names"] ?? .null } ?? .null,
            ]
        }
    }

    /// Carries out a timed client change's promise: the groups it had, or no configuration at
    /// all for a client the change configured. - Returns: `false` to try again later.
    func restoreClient(_ timer: PersistedTimer) async -> Bool {
        guard let id = timer.restore["pihole"]?.stringValue, let client = timer.restore["client"]?.stringValue else {
            logger.error("a saved Pi-hole client timer is not understood and is dropped", metadata: ["timer": "\(timer.restore.encodedString())"])
            return true
        }
        var metadata: Logger.Metadata = ["pihole": "\(id)", "client": "\(client)"]
        guard let instance = instances.first(where: { $0.id == id }) else {
            logger.warning("a timed restore is for a Pi-hole no longer configured; dropped", metadata: metadata)
            return true
        }
        defer {
            refreshDetailsSoon([.clients])
            publishRequests.request()
        }
        do {
            if timer.restore["created"] == true {
                try await instance.measured { try await $0.deleteClient(client) }
                logger.info("timed command ended: client no longer configured", metadata: metadata)
                return true
            }
            let saved = (timer.restore["groups"]?.arrayValue ?? []).compactMap { $0.numberValue.flatMap { Int(exactly: $0) } }
            // A group deleted meanwhile cannot be restored; the others are.
            let existing = Set(try await instance.measured { try await $0.groups() }.compactMap(\.id))
            let restorable = saved.filter(existing.contains)
            if restorable.count < saved.count { metadata["gone_groups"] = "\(saved.filter { !existing.contains($0) })" }
            _ = try await instance.measured { try await $0.setClientGroups(client, restorable) }
            logger.info("timed command ended: client's groups restored", metadata: metadata)
            return true
        } catch let error as PiHoleError where error.code == .notFound {
            logger.warning("the client of a timed command is gone; nothing to restore", metadata: metadata)
            return true
        } catch {
            metadata["error"] = "\(error)"
            logger.warning("timed restore failed; trying again shortly", metadata: metadata)
            return false
        }
    }

    /// The groups a change puts the client in on `instance`: the named ones (by key or name), or
    /// for a pause the bridge's own group, made there when it is missing.
    private func plan(_ change: ClientChange, on instance: PiHoleInstance) async throws(CommandError) -> ClientGroupsPlan {
        switch change {
        case .pause(let duration):
            do {
                let group = try await instance.measured {
                    try await $0.ensureGroup(PiHoleClientRegistry.unfilteredGroup, comment: PiHoleClientRegistry.unfilteredComment)
                }
                return ClientGroupsPlan(groupIDs: [group.id ?? 0], groupNames: [group.name], duration: duration)
            } catch {
                throw CommandError(instance.id, failure: error)
            }
        case .groups(let requested, let duration, _):
            let names = requested.map { requestedName in groups.withLock { $0.name(for: requestedName) } ?? requestedName }
            var known = instance.snapshot.details.groups ?? []
            if !names.allSatisfy({ name in known.contains { $0.name == name } }) {
                // Made on the Pi-hole since the last read, perhaps: read its groups now rather than refuse.
                await instance.refreshDetails(configuration.detailSchedule, forcing: [.groups])
                known = instance.snapshot.details.groups ?? []
            }
            var ids: [Int] = []
            for name in names {
                guard let id = known.first(where: { $0.name == name })?.id else {
                    throw CommandError("\(instance.id) has no group '\(name.prefix(80))'", code: .notFound)
                }
                if !ids.contains(id) { ids.append(id) }
            }
            return ClientGroupsPlan(groupIDs: ids, groupNames: ids.map { id in known.first { $0.id == id }!.name }, duration: duration)
        }
    }

    private func groupName(_ id: Int, on instance: PiHoleInstance) -> String {
        instance.snapshot.details.groups?.first { $0.id == id }?.name ?? "\(id)"
    }

    /// The client a command names, and the Pi-holes that have it configured.
    func clientHolders(_ keyOrClient: String) -> (client: String, holders: Set<String>)? {
        clientRegistry.withLock { registry in
            guard let client = registry.client(for: keyOrClient) else { return nil }
            return (client, Set(registry.entries.filter { $0.client.client == client }.map(\.pihole)))
        }
    }

    func refreshClientsAndGroups() async {
        await withDiscardingTaskGroup { group in
            for instance in instances {
                group.addTask { await instance.refreshDetails(self.configuration.detailSchedule, forcing: [.clients, .groups]) }
            }
        }
        updateGroupRegistry()
        let read = instances.map { (pihole: $0.id, clients: $0.snapshot.details.clients, groups: $0.snapshot.details.groups) }
        clientRegistry.withLock { $0.update(read) { _ in nil } }
    }
}

/// What a client change sends to one Pi-hole.
struct ClientGroupsPlan: Sendable {
    let groupIDs: [Int]
    let groupNames: [String]
    let duration: Duration?
}
