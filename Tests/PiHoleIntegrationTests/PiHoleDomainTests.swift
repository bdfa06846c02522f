import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

@Suite struct PiHoleDomainTests {
    @Test func addAndRemoveOnEveryPiHole() async throws {
        try await PiHoleFixture.run(ids: ["main", "backup"]) { fixture, observer in
            _ = try await observer.latest("home/pihole/availability") { $0 == "online" }
            let added = try await observer.command("home/pihole/domains/deny/add", "Ads.Example.com")
            #expect(added["status"] == "ok", "\(added)")
            #expect(fixture["main"].domains("deny", kind: "exact") == ["ads.example.com"])
            #expect(fixture["backup"].domains("deny", kind: "exact") == ["ads.example.com"])

            let json = try await observer.command("home/pihole/main/domains/allow/add", "{\"domain\":\"(^|\\\\.)cdn\\\\.example$\",\"kind\":\"regex\",\"comment\":\"school\"}")
            #expect(json["status"] == "ok", "\(json)")
            #expect(fixture["main"].domains("allow", kind: "regex").count == 1)
            #expect(fixture["backup"].domains("allow", kind: "regex").isEmpty)

            #expect(try await observer.command("home/pihole/domains/deny/remove", "ads.example.com")["status"] == "ok")
            #expect(fixture["main"].domains("deny", kind: "exact").isEmpty)
        }
    }

    @Test func duplicateAddAndMissingRemoveAreErrors() async throws {
        try await PiHoleFixture.run { fixture, observer in
            _ = try await observer.latest("home/pihole/availability") { $0 == "online" }
            #expect(try await observer.command("home/pihole/domains/allow/add", "school.example")["status"] == "ok")
            let duplicate = try await observer.command("home/pihole/domains/allow/add", "school.example")
            #expect(duplicate["status"] == "error" && duplicate["code"] == "conflict")
            #expect(duplicate["error"]?.stringValue?.contains("UNIQUE constraint failed") == true, "\(duplicate)")
            let missing = try await observer.command("home/pihole/domains/deny/remove", "never.example")
            #expect(missing["status"] == "error" && missing["code"] == "not_found", "\(missing)")
            // A refused request leaves the Pi-hole available.
            #expect(try await observer.latest("home/pihole/main")["available"] == true)
        }
    }

    @Test func badDomainsNeverReachTheAPI() async throws {
        try await PiHoleFixture.run { fixture, observer in
            _ = try await observer.latest("home/pihole/availability") { $0 == "online" }
            for bad in ["", "has space.com", "-bad.example", "exa$mple.com", "a..b", "{\"domain\":\"\"}", "{\"domain\":\"x.com\",\"kind\":\"glob\"}"] {
                let response = try await observer.command("home/pihole/domains/deny/add", bad)
                #expect(response["status"] == "error", "\(bad) → \(response)")
            }
            #expect(try await observer.command("home/pihole/domains/grey/add", "x.com")["error"] == "unknown domain list 'grey': use allow or deny")
            #expect(try await observer.command("home/pihole/domains/deny/ad", "x.com")["status"] == "error")
            #expect(fixture.calls("main", "/api/domains").isEmpty)
        }
    }
}
