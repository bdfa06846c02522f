import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// "What was just blocked?": the domains to allow when a site broke.
@Suite struct PiHoleRecentlyBlockedTests {
    static func prepare(_ simulator: PiHoleSimulator, now: Date) {
        simulator.recordQueries([
            SimulatedQuery(time: now - 30 * 60, domain: "old-tracker.example", clientIP: "192.168.1.23", status: "GRAVITY"),
            SimulatedQuery(time: now - 120, domain: "cdn.shop.example", clientIP: "192.168.1.23", clientName: "tablet", status: "GRAVITY"),
            SimulatedQuery(time: now - 90, domain: "ads.example", clientIP: "192.168.1.40", status: "DENYLIST"),
            SimulatedQuery(time: now - 60, domain: "cdn.shop.example", clientIP: "192.168.1.23", clientName: "tablet", status: "REGEX"),
            SimulatedQuery(time: now - 30, domain: "shop.example", clientIP: "192.168.1.23", status: "FORWARDED"),
        ])
    }

    @Test func answersTheDistinctBlockedDomainsOfTheWindowNewestFirst() async throws {
        try await PiHoleFixture.run { fixture, observer in
            Self.prepare(fixture["main"], now: Date())
            let answer = try await observer.command("home/pihole/recently_blocked/get", #"{"minutes":10}"#)
            #expect(answer["status"] == "ok", "\(answer)")
            let domains = answer["data"]?["domains"]?.arrayValue ?? []
            #expect(domains.map { $0["domain"] } == ["cdn.shop.example", "ads.example"], "allowed and older queries are left out")
            #expect(domains.first?["count"] == 2)
            #expect(domains.first?["clients"] == [["ip": "192.168.1.23", "name": "tablet"]])
            #expect(domains.first?["pihole"] == ["main"])
            let query = try #require(fixture.calls("main", "/api/queries").last?.query)
            #expect(query.contains("upstream=blocklist"))
        }
    }

    @Test func filtersByClientAndLimit() async throws {
        try await PiHoleFixture.run { fixture, observer in
            Self.prepare(fixture["main"], now: Date())
            let forTablet = try await observer.command("home/pihole/main/recently_blocked/get", #"{"minutes":60,"client":"192.168.1.23"}"#)
            #expect(forTablet["data"]?["domains"]?.arrayValue?.map { $0["domain"] } == ["cdn.shop.example", "old-tracker.example"])
            let one = try await observer.command("home/pihole/recently_blocked/get", #"{"minutes":60,"limit":1}"#)
            #expect(one["data"]?["domains"]?.arrayValue?.count == 1)
            #expect(one["data"]?["truncated"] == true)
        }
    }

    @Test func mergesEveryPiHoleAndNamesOneThatDidNotAnswer() async throws {
        try await PiHoleFixture.run(ids: ["alpha", "beta"]) { fixture, observer in
            let now = Date()
            Self.prepare(fixture["alpha"], now: now)
            fixture["beta"].recordQueries([SimulatedQuery(time: now - 10, domain: "ads.example", clientIP: "192.168.1.50", status: "GRAVITY")])
            let both = try await observer.command("home/pihole/recently_blocked/get")
            let ads = both["data"]?["domains"]?.arrayValue?.first { $0["domain"] == "ads.example" }
            #expect(ads?["count"] == 2)
            #expect(ads?["pihole"] == ["alpha", "beta"])
            try await fixture["beta"].setFault(.serverError)
            let partial = try await observer.command("home/pihole/recently_blocked/get")
            #expect(partial["status"] == "ok", "\(partial)")
            #expect(partial["data"]?["errors"]?["beta"]?.stringValue != nil)
            try await fixture["beta"].setFault(nil)
        }
    }

    @Test(arguments: [
        #"{"minutes":0}"#, #"{"minutes":1441}"#, #"{"minutes":2.5}"#, #"{"client":"192.168.1.*"}"#, #"{"client":"x&upstream=cache"}"#,
        #"{"limit":0}"#, #"{"limit":"all"}"#, #"{"since":10}"#, "ten", "[1]",
    ])
    func badQuestionsAreRefusedWithoutAnyRead(payload: String) async throws {
        try await PiHoleFixture.run { fixture, observer in
            let answer = try await observer.command("home/pihole/recently_blocked/get", payload)
            #expect(answer["status"] == "error", "\(payload) → \(answer)")
            #expect(fixture.calls("main", "/api/queries").isEmpty)
        }
    }
}
