#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A DNS query for the simulator's query log (`PiHoleSimulator.recordQueries(_:)`).
public struct SimulatedQuery: Sendable, Equatable {
    public var time: Date
    public var domain: String
    public var clientIP: String
    public var clientName: String?
    /// FTL's status: `GRAVITY`, `REGEX`, `DENYLIST`, … (blocked), `FORWARDED`, `CACHE`, ….
    public var status: String
    public var type: String
    /// Where a forwarded query went (`1.1.1.1#53` by default); `nil` for the others.
    public var upstream: String?

    public init(
        time: Date, domain: String, clientIP: String, clientName: String? = nil, status: String,
        type: String = "A", upstream: String? = nil
    ) {
        self.time = time
        self.domain = domain
        self.clientIP = clientIP
        self.clientName = clientName
        self.status = status
        self.type = type
        self.upstream = upstream ?? (status == "FORWARDED" ? "1.1.1.1#53" : nil)
    }

    /// Statuses FTL counts as blocked (stats.yaml `status`).
    public static let blockedStatuses: Set<String> = [
        "GRAVITY", "REGEX", "DENYLIST", "EXTERNAL_BLOCKED_IP", "EXTERNAL_BLOCKED_NULL",
        "EXTERNAL_BLOCKED_NXRA", "GRAVITY_CNAME", "REGEX_CNAME", "DENYLIST_CNAME", "SPECIAL_DOMAIN",
        "EXTERNAL_BLOCKED_EDE15",
    ]
    /// Statuses FTL answered from its cache.
    static let cachedStatuses: Set<String> = ["CACHE", "CACHE_STALE"]

    var isBlocked: Bool { Self.blockedStatuses.contains(status) }
}

/// FTL's in-memory query log: ids in arrival order, the oldest dropped past `capacity`.
struct SimulatedQueryLog: Sendable {
    struct Entry: Sendable {
        let id: Int
        let query: SimulatedQuery
    }

    static let capacity = 100_000
    /// How far back FTL's memory (and so the summary) reaches.
    static let window: TimeInterval = 24 * 3600

    private(set) var entries: [Entry] = []
    private var nextID = 1

    mutating func record(_ queries: [SimulatedQuery]) {
        for query in queries {
            entries.append(Entry(id: nextID, query: query))
            nextID += 1
        }
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// The queries of the 24 hours before `now`.
    func recent(now: Date) -> [SimulatedQuery] {
        entries.compactMap { now.timeIntervalSince($0.query.time) < Self.window ? $0.query : nil }
    }

    /// What `/api/action/flush/logs` does: forget the last 24 hours.
    mutating func flushRecent(now: Date) {
        entries.removeAll { now.timeIntervalSince($0.query.time) < Self.window }
    }
}
