import Foundation
import Testing

@testable import PiHoleAPI
@testable import PiHoleSimulator

@Suite("PiHoleClient statistics, sessions and info against the simulator")
struct StatisticsClientTests {
    @Test func summaryCountsTheLastDayAndUnknownGravityIsNil() async throws {
        try await withFixture { f in
            let now = Date()
            f.simulator.recordQueries([
                SimulatedQuery(time: now - 60, domain: "ads.example", clientIP: "10.0.0.2", status: "GRAVITY"),
                SimulatedQuery(time: now - 50, domain: "news.example", clientIP: "10.0.0.2", status: "FORWARDED"),
                SimulatedQuery(time: now - 40, domain: "news.example", clientIP: "10.0.0.3", status: "CACHE"),
                SimulatedQuery(time: now - 30, domain: "track.example", clientIP: "10.0.0.3", status: "REGEX"),
                // Older than a day: only counted among all clients ever seen.
                SimulatedQuery(time: now - 90_000, domain: "old.example", clientIP: "10.0.0.9", status: "GRAVITY"),
            ])
            f.simulator.setGravity(domains: 12_345, lastUpdate: nil)
            let summary = try await f.client.summary()
            #expect(summary.queriesTotal == 4)
            #expect(summary.queriesBlocked == 2)
            #expect(summary.percentBlocked == 50)
            #expect(summary.uniqueDomains == 3)
            #expect(summary.forwarded == 1)
            #expect(summary.cached == 1)
            #expect(summary.clientsActive == 2)
            #expect(summary.clientsTotal == 3)
            #expect(summary.gravityDomains == 12_345)
            #expect(summary.gravityLastUpdate == nil)
            let (_, raw) = try await rawGet(f, "/api/stats/summary")
            #expect(raw.contains(#""last_update":0"#))

            let updated = Date(timeIntervalSince1970: 1_725_194_639)
            f.simulator.setGravity(domains: 1, lastUpdate: updated)
            let afterUpdate = try await f.client.summary()
            #expect(afterUpdate.gravityLastUpdate == updated)
        }
    }

    @Test func sessionsShowOwnAndForeignSeats() async throws {
        try await withFixture { f in
            #expect(f.simulator.addForeignSessions(count: 2) == 2)
            let sessions = try await f.client.sessions()
            #expect(sessions.count == 3)
            #expect(Set(sessions.map(\.id)).count == 3)
            #expect(sessions.filter(\.isCurrent).count == 1)
            #expect(sessions.allSatisfy { $0.valid })
            #expect(sessions.filter { $0.remoteAddress?.hasPrefix("192.168.1.") == true }.count == 2)
            #expect(sessions.first(where: \.isCurrent)?.isApp == false)
            let maxSessions = try await f.client.maxSessions()
            #expect(maxSessions == 16)
        }
    }

    @Test func foreignSessionsTakeSeats() async throws {
        try await withFixture { f in
            #expect(f.simulator.addForeignSessions(count: 20) == 16)
            let error = await piHoleError { _ = try await f.client.sessions() }
            #expect(error?.code == .seatsExceeded)
        }
    }

    @Test func messageCountAndNewerVersion() async throws {
        try await withFixture { f in
            let noMessages = try await f.client.messageCount()
            #expect(noMessages == 0)
            f.simulator.setMessageCount(3)
            let threeMessages = try await f.client.messageCount()
            #expect(threeMessages == 3)

            var versions = try await f.client.versions()
            #expect(versions.core == PiHoleVersions.Component(installed: "v6.1.4", latest: "v6.1.4"))
            f.simulator.setLatestVersion("v6.2")
            versions = try await f.client.versions()
            #expect(versions.core == PiHoleVersions.Component(installed: "v6.1.4", latest: "v6.2"))
            #expect(versions.ftl.latest == "v6.2")
        }
    }
}

/// A GET with the client's own session, for looking at the raw answer.
func rawGet(_ f: Fixture, _ path: String) async throws -> (Int, String) {
    _ = try await f.client.messageCount()  // makes sure the client has a session
    let sid = try #require(f.simulator.requests.last?.header("x-ftl-sid"))
    return try await directRequest(f.http, .GET, f.simulator.baseURL + path, sid: sid)
}
