import BridgeCore
import Foundation
import PiHoleAPI

/// What the bridge last saw of one Pi-hole; published retained at `base/pihole/<id>`.
struct PiHoleSnapshot: Sendable, Equatable {
    var blocking: PiHoleBlocking = .unknown
    /// Seconds left on a pause, as the Pi-hole counts them.
    var timer: Double?
    var resumesAt: Date?
    var host: String?
    var version: String?
    var available = false
    var error: String?

    mutating func update(with status: PiHoleBlockingStatus, at now: Date) {
        blocking = status.blocking
        timer = status.timer
        resumesAt = status.timer.map { now.addingTimeInterval($0) }
    }

    func payload(id: String) -> JSONValue {
        [
            "id": .string(id),
            "blocking": .string(blocking.rawValue),
            "timer": timer.map { .number(($0 * 10).rounded() / 10) } ?? .null,
            "resumes_at": resumesAt.map { .string(Self.timestamp($0)) } ?? .null,
            "host": host.map(JSONValue.string) ?? .null,
            "version": version.map(JSONValue.string) ?? .null,
            "available": .bool(available),
            "error": error.map(JSONValue.string) ?? .null,
        ]
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// The one dot a watch shows: `enabled`, `disabled`, `mixed` (or `unknown` before any answer),
/// and when the last running pause ends.
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
        resumesAt = snapshots.compactMap(\.snapshot.resumesAt).max()
        instances = Dictionary(uniqueKeysWithValues: snapshots.map { ($0.id, $0.snapshot.blocking) })
    }

    var payload: JSONValue {
        [
            "blocking": .string(blocking),
            "resumes_at": resumesAt.map { .string(PiHoleSnapshot.timestamp($0)) } ?? .null,
            "instances": .object(instances.mapValues { .string($0.rawValue) }),
        ]
    }
}
