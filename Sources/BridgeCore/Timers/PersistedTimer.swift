#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A promise to undo a timed command ("downtime off for an hour", "return pump off for ten
/// minutes"): when `dueAt` comes, the integration carries out `restore`. It survives restarts.
public struct PersistedTimer: Sendable, Equatable {
    /// The integration that set it and carries it out: `unifi`.
    public let integration: String
    /// What it is for, unique within the integration: `rule/<id>`. A new timer for the same key
    /// replaces the old one.
    public let key: String
    /// The integration's own description of what to do when it is due: `{"enabled":true}`.
    public let restore: JSONValue
    /// Wall-clock time, for the file and for people; while the bridge runs, the wait is measured
    /// on the monotonic clock, so a clock step neither fires a timer early nor holds it back.
    public let dueAt: Date

    public init(integration: String, key: String, restore: JSONValue, dueAt: Date) {
        self.integration = integration
        self.key = key
        self.restore = restore
        self.dueAt = dueAt
    }

    var id: TimerID { TimerID(integration: integration, key: key) }
}

extension PersistedTimer {
    /// As `timers.json` holds it: `{"integration","key","restore","dueAt"}`, the time in ISO 8601.
    var json: JSONValue {
        ["integration": .string(integration), "key": .string(key), "restore": restore, "dueAt": .string(dueAt.iso8601)]
    }

    init?(json: JSONValue) {
        guard let integration = json["integration"]?.stringValue, let key = json["key"]?.stringValue,
            let restore = json["restore"], let text = json["dueAt"]?.stringValue,
            let dueAt = try? Date(text, strategy: .iso8601)
        else { return nil }
        self.init(integration: integration, key: key, restore: restore, dueAt: dueAt)
    }
}

struct TimerID: Hashable, Sendable {
    let integration: String
    let key: String
}
