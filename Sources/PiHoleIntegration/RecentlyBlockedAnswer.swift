import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// The answer to `recently_blocked/get`: each blocked domain once, newest first, with how often
/// and for whom it was blocked, over the Pi-holes asked. A pure value, tested without I/O.
struct RecentlyBlockedAnswer: Sendable {
    struct Domain: Sendable, Equatable {
        let domain: String
        var count: Int
        var lastBlocked: Date
        var clients: [String: String?]
        var piholes: Set<String>
    }

    let request: RecentlyBlockedRequest
    private(set) var domains: [Domain] = []
    /// Queries read in all, and whether a Pi-hole had more in the window than was read.
    private(set) var queriesRead = 0
    private(set) var truncated = false
    var errors: [String: String] = [:]

    /// How many blocked queries are read from each Pi-hole at most: a domain blocked a thousand
    /// times a minute must not cost a huge answer.
    static let queriesPerPiHole = 1000

    init(request: RecentlyBlockedRequest, pages: [(pihole: String, page: PiHoleQueryPage)]) {
        self.request = request
        var byDomain: [String: Domain] = [:]
        for (pihole, page) in pages {
            queriesRead += page.queries.count
            if let matched = page.recordsFiltered, matched > page.queries.count { truncated = true }
            for query in page.queries {
                var entry = byDomain[query.domain] ?? Domain(domain: query.domain, count: 0, lastBlocked: query.time, clients: [:], piholes: [])
                entry.count += 1
                entry.lastBlocked = max(entry.lastBlocked, query.time)
                if entry.clients[query.clientIP] == nil || entry.clients[query.clientIP]! == nil {
                    entry.clients[query.clientIP] = query.clientName
                }
                entry.piholes.insert(pihole)
                byDomain[query.domain] = entry
            }
        }
        let sorted = byDomain.values.sorted { ($0.lastBlocked, $1.domain) > ($1.lastBlocked, $0.domain) }
        if sorted.count > request.limit { truncated = true }
        domains = Array(sorted.prefix(request.limit))
    }

    var payload: JSONValue {
        [
            "minutes": .number(Double(request.minutes)),
            "client": request.client.map(JSONValue.string) ?? .null,
            "limit": .number(Double(request.limit)),
            "domains": .array(domains.map { domain in
                [
                    "domain": .string(domain.domain),
                    "count": .number(Double(domain.count)),
                    "last_blocked": .string(domain.lastBlocked.iso8601),
                    "clients": .array(domain.clients.keys.sorted().map { ip in
                        ["ip": .string(ip), "name": domain.clients[ip]!.map(JSONValue.string) ?? .null]
                    }),
                    "pihole": .array(domain.piholes.sorted().map(JSONValue.string)),
                ]
            }),
            "queries_read": .number(Double(queriesRead)),
            "truncated": .bool(truncated),
            "errors": .object(errors.mapValues(JSONValue.string)),
        ]
    }
}
