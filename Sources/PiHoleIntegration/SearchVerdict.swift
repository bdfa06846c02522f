import BridgeCore
import PiHoleAPI

/// What one Pi-hole's search found, and whether the domain is blocked for the client asked
/// about, in FTL's order: an allow entry (exact or regex) that applies lets the domain through
/// whatever else matches; else a deny entry (exact or regex) blocks it; else a block list does,
/// unless an allow list ("antigravity") that applies holds the domain too. A match applies when
/// it is enabled and in an enabled group the client is in. A pure value, tested without I/O.
struct SearchVerdict: Sendable {
    /// What decided the verdict.
    enum Reason: String, Sendable {
        case allowEntry = "allow_entry", denyEntry = "deny_entry", blockList = "block_list", allowList = "allow_list"
        /// Something matched, but nothing that applies to the client.
        case noneApplies = "none_applies"
        case noMatch = "no_match"
    }

    let found: PiHoleSearchResult
    let groups: [PiHoleGroup]
    /// The groups the verdict is for: the client's, or the Default group's.
    let clientGroupIDs: [Int]
    /// Whether a client was asked about, and whether the Pi-hole has it configured (else it is in
    /// the Default group).
    let client: (asked: Bool, configured: Bool)
    let partial: Bool

    /// Entries once each: a partial search lists a regex that both contains and matches the term twice.
    var entries: [PiHoleSearchResult.Entry] {
        var seen = Set<Int>()
        return found.entries.filter { seen.insert($0.id).inserted }
    }

    var truncated: Bool { found.total > found.entries.count + found.lists.count }

    func applies(enabled: Bool, groupIDs: [Int]) -> Bool {
        enabled && groupIDs.contains { id in clientGroupIDs.contains(id) && groups.contains { $0.id == id && $0.enabled } }
    }

    /// Why a match does not apply, `nil` when it does: it is disabled; it shares groups with the
    /// client, each of them disabled; or it shares none.
    func notApplying(enabled: Bool, groupIDs: [Int]) -> String? {
        if !enabled { return "disabled" }
        let shared = groupIDs.filter { clientGroupIDs.contains($0) }
        if shared.isEmpty { return "not_in_client_groups" }
        return applies(enabled: enabled, groupIDs: groupIDs) ? nil : "group_disabled"
    }

    /// `nil` for a partial search: its matches are of many domains.
    var decision: (blocked: Bool, reason: Reason, entries: [PiHoleSearchResult.Entry], lists: [PiHoleSearchResult.ListMatch])? {
        guard !partial else { return nil }
        let entries = entries.filter { applies(enabled: $0.enabled, groupIDs: $0.groupIDs) }
        let lists = found.lists.filter { applies(enabled: $0.enabled, groupIDs: $0.groupIDs) }
        let allowEntries = entries.filter { $0.list == .allow }
        if !allowEntries.isEmpty { return (false, .allowEntry, allowEntries, []) }
        let denyEntries = entries.filter { $0.list == .deny }
        let allowLists = lists.filter { $0.type == .allow }
        let blockLists = allowLists.isEmpty ? lists.filter { $0.type == .block } : []
        if !denyEntries.isEmpty || !blockLists.isEmpty {
            return (true, denyEntries.isEmpty ? .blockList : .denyEntry, denyEntries, blockLists)
        }
        if !allowLists.isEmpty { return (false, .allowList, [], allowLists) }
        return (false, found.entries.isEmpty && found.lists.isEmpty ? .noMatch : .noneApplies, [], [])
    }

    var payload: JSONValue {
        var fields: [String: JSONValue] = [
            "matches": [
                "domains": .array(entries.map(render)),
                "lists": .array(found.lists.map(render)),
            ],
            "client_groups": .array(clientGroupIDs.map { .string(groupName($0)) }),
            "truncated": .bool(truncated),
        ]
        if client.asked { fields["client_configured"] = .bool(client.configured) }
        if let decision {
            fields["blocked"] = .bool(decision.blocked)
            fields["reason"] = .string(decision.reason.rawValue)
            fields["decided_by"] = ["domains": .array(decision.entries.map(render)), "lists": .array(decision.lists.map(render))]
        } else {
            fields["blocked"] = .null
        }
        return .object(fields)
    }

    /// `applies_to_client`: to the client asked about, or to the Default group's without one;
    /// `not_applying`: why not.
    private func render(_ entry: PiHoleSearchResult.Entry) -> JSONValue {
        .object([
            "domain": .string(entry.domain), "kind": .string(entry.kind.rawValue), "list": .string(entry.list.rawValue),
            "groups": groupNames(entry.groupIDs), "enabled": .bool(entry.enabled),
        ].merging(applying(enabled: entry.enabled, groupIDs: entry.groupIDs)) { first, _ in first })
    }

    private func render(_ list: PiHoleSearchResult.ListMatch) -> JSONValue {
        .object([
            "address": .string(list.address), "type": .string(list.type.rawValue), "domain": .string(list.domain),
            "groups": groupNames(list.groupIDs), "enabled": .bool(list.enabled),
        ].merging(applying(enabled: list.enabled, groupIDs: list.groupIDs)) { first, _ in first })
    }

    private func applying(enabled: Bool, groupIDs: [Int]) -> [String: JSONValue] {
        let reason = notApplying(enabled: enabled, groupIDs: groupIDs)
        return ["applies_to_client": .bool(reason == nil), "not_applying": reason.map(JSONValue.string) ?? .null]
    }

    private func groupNames(_ ids: [Int]) -> JSONValue {
        .array(ids.map { .string(groupName($0)) })
    }

    private func groupName(_ id: Int) -> String {
        groups.first { $0.id == id }?.name ?? "group \(id)"
    }
}
