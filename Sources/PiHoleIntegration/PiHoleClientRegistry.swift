import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// The configured clients of every Pi-hole by key: one client (`192.168.1.23`, `emma-tablet`)
/// configured on several Pi-holes is one key, which the plain `client/<key>/…` topics act on.
struct PiHoleClientRegistry: PiHoleKeyedRegistry, Sendable {
    /// One client on one Pi-hole, as published.
    struct Entry: PiHoleKeyedEntry, Equatable {
        let pihole: String
        let key: String
        let client: PiHoleClientEntry
        /// Its group ids as names (an id no group has is shown as its number).
        let groupNames: [String]
        /// A timed change's pending restore.
        let restore: PersistedTimer?

        /// In the bridge's own group alone: its filtering is paused.
        var isPaused: Bool { groupNames == [PiHoleClientRegistry.unfilteredGroup] }
    }

    /// The bridge's group without block lists or domains: a client in it alone is not filtered.
    static let unfilteredGroup = "home2mqtt-unfiltered"
    static let unfilteredComment = "home2mqtt: a client paused from filtering is in this group alone until its pause ends. Give it no lists or domains."

    private var keys = TopicKeys()
    private(set) var entries: [Entry] = []

    /// The key of a client's persisted timer: one per client and Pi-hole.
    static func timerKey(pihole: String, client: String) -> String { "client/\(pihole)/\(client)" }

    /// Takes the clients and groups as read (Pi-holes in configuration order; `nil`: not read yet).
    mutating func update(
        _ read: [(pihole: String, clients: [PiHoleClientEntry]?, groups: [PiHoleGroup]?)], pending: (String) -> PersistedTimer?
    ) {
        let named = read.flatMap { $0.clients ?? [] }.map { (id: PiHoleGroupRegistry.nameID($0.client), name: $0.name ?? $0.client) }
        let assigned = keys.update(named)
        entries = read.flatMap { pihole, clients, groups in
            (clients ?? []).map { client in
                let names = client.groups.map { id in groups?.first { $0.id == id }?.name ?? "\(id)" }
                return Entry(
                    pihole: pihole, key: assigned[PiHoleGroupRegistry.nameID(client.client)]!, client: client, groupNames: names,
                    restore: pending(Self.timerKey(pihole: pihole, client: client.client)))
            }
        }
    }

    /// The client string a command means by `keyOrClient`: its key, or the client as FTL
    /// stores it (a MAC address in either case).
    func client(for keyOrClient: String) -> String? {
        (entries.first { $0.key == keyOrClient } ?? entries.first { $0.client.client.lowercased() == keyOrClient.lowercased() })?.client.client
    }

    /// `base/pihole/clients`: each client by key, its groups on each Pi-hole, and until when its
    /// filtering is paused (the latest pause's end over the Pi-holes; `null` when none is).
    var aggregatePayload: JSONValue {
        .object(Dictionary(grouping: entries, by: \.key).mapValues { entries in
            let pausedUntil = entries.filter(\.isPaused).compactMap { $0.restore?.dueAt }.max()
            return [
                "client": .string(entries[0].client.client),
                "name": entries[0].client.name.map(JSONValue.string) ?? .null,
                "piholes": .object(Dictionary(entries.map { ($0.pihole, JSONValue.array($0.groupNames.map(JSONValue.string))) }) { first, _ in first }),
                "paused": .bool(entries.contains(where: \.isPaused)),
                "paused_until": pausedUntil.map { .string($0.iso8601) } ?? .null,
            ]
        })
    }
}

extension PiHoleClientRegistry.Entry {
    var payload: JSONValue {
        [
            "client": .string(client.client),
            "name": client.name.map(JSONValue.string) ?? .null,
            "comment": client.comment.map(JSONValue.string) ?? .null,
            "groups": .array(groupNames.map(JSONValue.string)),
            "paused": .bool(isPaused),
            "restore_at": restore.map { .string($0.dueAt.iso8601) } ?? .null,
            "restore_to": restore?.restore["group_names"] ?? .null,
        ]
    }
}
