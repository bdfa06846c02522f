import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// What the bridge last saw of one Pi-hole; published retained at `base/pihole/<id>`.
///
/// While the Pi-hole does not answer, `blocking` says `unknown` and the last answer moves to
/// `last_known` (read at `last_seen`): a watch shows a grey dot, not yesterday's state as today's.
struct PiHoleSnapshot: Sendable, Equatable {
    /// The last state the Pi-hole reported, however old.
    var lastKnown: PiHoleBlocking = .unknown
    /// When the Pi-hole last answered a blocking read or change.
    var lastSeen: Date?
    /// Seconds left on a pause, as the Pi-hole counted them at `lastSeen`.
    var timer: Double?
    var resumesAt: Date?
    var host: String?
    /// Statistics, groups, diagnostics and versions: read less often.
    var details = PiHoleDetails()
    var available = false
    var error: String?

    mutating func update(with status: PiHoleBlockingStatus, at now: Date) {
        lastKnown = status.blocking
        lastSeen = now
        timer = status.timer
        resumesAt = status.timer.map { now.addingTimeInterval($0) }
    }

    /// The state as of now: `unknown` while the Pi-hole is not answering.
    var blocking: PiHoleBlocking { available ? lastKnown : .unknown }

    /// When a running pause ends, as far as anyone can tell now.
    var currentResumesAt: Date? { available ? resumesAt : nil }

    func payload(id: String) -> JSONValue {
        [
            "id": .string(id),
            "blocking": .string(blocking.rawValue),
            "timer": available ? timer.map { .number(($0 * 10).rounded() / 10) } ?? .null : .null,
            "resumes_at": currentResumesAt.map { .string($0.iso8601) } ?? .null,
            "last_known": lastSeen == nil ? .null : .string(lastKnown.rawValue),
            "last_seen": lastSeen.map { .string($0.iso8601) } ?? .null,
            "host": host.map(JSONValue.string) ?? .null,
            "version": details.versions?.summary.map(JSONValue.string) ?? .null,
            "available": .bool(available),
            "error": error.map(JSONValue.string) ?? .null,
        ]
    }
}

/// The one dot a watch shows: `enabled` or `disabled` when every Pi-hole answers and agrees,
/// `mixed` when they differ or only some answer, `unknown` when none answers; and when the
/// last running pause ends.
struct PiHoleAggregate: Equatable, Sendable {
    let blocking: String
    let resumesAt: Date?
    let instances: [String: PiHoleBlocking]

    init(_ snapshots: [(id: String, snapshot: PiHoleSnapshot)]) {
        let known = snapshots.map(\.snapshot.blocking).filter { $0 == .enabled || $0 == .disabled }
        if known.isEmpty {
            blocking = "unknown"
        } else if Set(known).count == 1, known.count == snapshots.count {
            blocking = known[0].rawValue
        } else {
            blocking = "mixed"
        }
        resumesAt = snapshots.compactMap(\.snapshot.currentResumesAt).max()
        instances = Dictionary(uniqueKeysWithValues: snapshots.map { ($0.id, $0.snapshot.blocking) })
    }

    var payload: JSONValue {
        [
            "blocking": .string(blocking),
            "resumes_at": resumesAt.map { .string($0.iso8601) } ?? .null,
            "instances": .object(instances.mapValues { .string($0.rawValue) }),
        ]
    }
}
