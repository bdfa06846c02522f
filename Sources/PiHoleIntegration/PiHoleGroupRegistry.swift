import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// The groups of every Pi-hole by key: a group of the same name on several Pi-holes is one key
/// (the plain `group/<key>/set` switches it on all of them). Keys stay as long as names do.
struct PiHoleGroupRegistry: PiHoleKeyedRegistry, Sendable {
    /// One group on one Pi-hole, as published.
    struct Entry: PiHoleKeyedEntry, Equatable {
        let pihole: String
        let key: String
        let group: PiHoleGroup
        /// A timed switch's pending restore.
        let restore: PersistedTimer?
    }

    private var keys = TopicKeys()
    private(set) var entries: [Entry] = []

    /// The key of a group's persisted timer: one per group and Pi-hole.
    static func timerKey(pihole: String, name: String) -> String { "group/\(pihole)/\(name)" }

    /// Takes the groups as read (Pi-holes in configuration order; `nil`: not read yet).
    mutating func update(_ read: [(pihole: String, groups: [PiHoleGroup]?)], pending: (String) -> PersistedTimer?) {
        let names = read.flatMap { $0.groups ?? [] }.map(\.name)
        var seen = Set<String>()
        // A name's id for the keys: its hash, so a key made unique never carries a `/` or `#`.
        let assigned = keys.update(names.filter { seen.insert($0).inserted }.map { (id: Self.nameID($0), name: $0) })
        entries = read.flatMap { pihole, groups in
            (groups ?? []).map { group in
                Entry(
                    pihole: pihole, key: assigned[Self.nameID(group.name)]!, group: group,
                    restore: pending(Self.timerKey(pihole: pihole, name: group.name)))
            }
        }
    }

    /// The group name a command means by `keyOrName`: its key, or its exact name.
    func name(for keyOrName: String) -> String? {
        (entries.first { $0.key == keyOrName } ?? entries.first { $0.group.name == keyOrName })?.group.name
    }

    /// `base/pihole/groups`: each group name by key, `enabled` when every Pi-hole that has it agrees.
    var aggregatePayload: JSONValue {
        .object(Dictionary(grouping: entries, by: \.key).mapValues { entries in
            let states = Set(entries.map(\.group.enabled))
            return [
                "name": .string(entries[0].group.name),
                "state": .string(states.count > 1 ? "mixed" : states.first! ? "enabled" : "disabled"),
                "enabled": states.count > 1 ? .null : .bool(states.first!),
                "piholes": .object(Dictionary(entries.map { ($0.pihole, JSONValue.bool($0.group.enabled)) }) { first, _ in first }),
            ]
        })
    }

    /// FNV-1a of the name, in hex: stable across runs and machines.
    static func nameID(_ name: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}

extension PiHoleGroupRegistry.Entry {
    var payload: JSONValue {
        [
            "name": .string(group.name),
            "enabled": .bool(group.enabled),
            "comment": group.comment.map(JSONValue.string) ?? .null,
            "default": .bool(group.isDefault),
            "restore_at": restore.map { .string($0.dueAt.iso8601) } ?? .null,
            "restore_to": restore?.restore["enabled"] ?? .null,
        ]
    }
}
