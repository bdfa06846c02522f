import Foundation
import Testing

@testable import PiHoleAPI
@testable import PiHoleSimulator

@Suite("PiHoleClient blocked queries against the simulator")
struct QueriesClientTests {
    @Test func blockedQueriesOfTheWindowNewestFirst() async throws {
        try await withFixture { f in
            let now = Date().rounded
            f.simulator.recordQueries([
                SimulatedQuery(time: now - 900, domain: "before.example", clientIP: "10.0.0.2", status: "GRAVITY"),
                SimulatedQuery(time: now - 500, domain: "first.example", clientIP: "10.0.0.2", status: "GRAVITY"),
                SimulatedQuery(time: now - 400, domain: "allowed.example", clientIP: "10.0.0.2", status: "FORWARDED"),
                SimulatedQuery(time: now - 300, domain: "other.example", clientIP: "10.0.0.3", clientName: "tv", status: "REGEX"),
                SimulatedQuery(time: now - 200, domain: "cached.example", clientIP: "10.0.0.2", status: "CACHE"),
                SimulatedQuery(time: now - 100, domain: "second.example", clientIP: "10.0.0.2", clientName: "laptop", status: "DENYLIST"),
                SimulatedQuery(time: now + 100, domain: "after.example", clientIP: "10.0.0.2", status: "GRAVITY"),
            ])
            let window = (from: now - 600, until: now)

            let all = try await f.client.blockedQueries(from: window.from, until: window.until, clientIP: nil, limit: 10)
            #expect(all.queries.map(\.domain) == ["second.example", "other.example", "first.example"])
            #expect(all.recordsFiltered == 3)
            #expect(all.queries[0] == PiHoleQuery(
                time: now - 100, domain: "second.example", status: "DENYLIST", clientIP: "10.0.0.2", clientName: "laptop"))

            let one = try await f.client.blockedQueries(from: window.from, until: window.until, clientIP: "10.0.0.2", limit: 10)
            #expect(one.queries.map(\.domain) == ["second.example", "first.example"])

            let limited = try await f.client.blockedQueries(from: window.from, until: window.until, clientIP: nil, limit: 1)
            #expect(limited.queries.map(\.domain) == ["second.example"])
            #expect(limited.recordsFiltered == 3)

            let request = try #require(f.simulator.requests.last { $0.path == "/api/queries" })
            #expect(request.query?.contains("upstream=blocklist") == true)
            #expect(request.query?.contains("length=1") == true)
        }
    }

    @Test func clientIPIsEncodedAndIPv6Works() async throws {
        try await withFixture { f in
            let now = Date().rounded
            f.simulator.recordQueries([
                SimulatedQuery(time: now - 10, domain: "v6.example", clientIP: "fd00::1", status: "GRAVITY")
            ])
            let page = try await f.client.blockedQueries(from: now - 60, until: now, clientIP: "fd00::1", limit: 5)
            #expect(page.queries.map(\.clientIP) == ["fd00::1"])
            let request = try #require(f.simulator.requests.last { $0.path == "/api/queries" })
            #expect(request.query?.contains("client_ip=fd00%3A%3A1") == true)
        }
    }
}

extension Date {
    /// Whole seconds: the client asks in whole seconds.
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
