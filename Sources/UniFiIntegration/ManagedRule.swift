import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UniFiAPI

/// A rule the bridge manages, as it publishes it at `base/unifi/rule/<key>`.
struct ManagedRule: Sendable, Equatable {
    let controller: String
    let key: String
    let rule: UniFiRule
    let readAt: Date?
    /// A timed command's pending restore, if any.
    let restore: PersistedTimer?

    /// The key of the rule's persisted timer: one per rule, whatever its key.
    static func timerKey(controller: String, id: String) -> String { "rule/\(controller)/\(id)" }

    var payload: JSONValue {
        [
            "id": .string(rule.id),
            "key": .string(key),
            "name": .string(rule.name),
            "kind": .string(rule.kind.rawValue),
            "enabled": .bool(rule.enabled),
            "action": .string(rule.action),
            "origin": .string(rule.origin.description),
            "controller": .string(controller),
            "restore_at": restore.map { .string($0.dueAt.iso8601) } ?? .null,
            "restore_to": restore?.restore["enabled"] ?? .null,
            "read_at": readAt.map { .string($0.iso8601) } ?? .null,
        ]
    }

    var indexEntry: JSONValue {
        ["id": .string(rule.id), "name": .string(rule.name), "kind": .string(rule.kind.rawValue), "controller": .string(controller)]
    }
}
