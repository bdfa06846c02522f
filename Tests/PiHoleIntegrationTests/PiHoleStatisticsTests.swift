import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// Statistics, versions and diagnostics: what Home Assistant's own Pi-hole integration shows.
@Suite struct PiHoleStatisticsTests {
    static func queries(blocked: Int, forwarded: Int, cached: Int, client: String = "192.168.1.23") -> [SimulatedQuery] {
        let now = Date()
        return (0..<blocked).map { SimulatedQuery(time: now - Double($0), domain: "ads\($0 % 3).example", clientIP: client, status: "GRAVITY") }
            + (0..<forwarded).map { SimulatedQuery(time: now - Double($0), domain: "site\($0).example", clientIP: client, status: "FORWARDED") }
            + (0..<cached).map { SimulatedQuery(time: now - Double($0), domain: "site0.example", clientIP: "192.168.1.40", status: "CACHE") }
    }

    @Test func statisticsArePublishedWithSensorsThatAreMeasurements() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].recordQueries(Self.queries(blocked: 6, forwarded: 10, cached: 4))
            fixture["main"].setGravity(domains: 123_456, lastUpdate: Date(timeIntervalSince1970: 1_790_000_000))
            _ = try await observer.command("home/pihole/refresh")
            let stats = try await observer.latest("home/pihole/main/stats") { $0["queries"] == 20 }
            #expect(stats["blocked"] == 6)
            #expect(stats["percent_blocked"] == 30)
            #expect(stats["forwarded"] == 10)
            #expect(stats["cached"] == 4)
            #expect(stats["clients_active"] == 2)
            #expect(stats["gravity_domains"] == 123_456)
            #expect(stats["gravity_last_update"]?.stringValue?.hasPrefix("2026-09-21") == true, "\(stats)")
            // Counts of a sliding 24-hour window fall as well as rise: measurements, never total_increasing.
            for object in ["queries", "blocked", "percent_blocked", "cached", "forwarded", "unique_domains", "clients_active", "gravity_domains"] {
                let config = try await observer.latest("homeassistant/sensor/home2mqtt_home/pihole_main_\(object)/config")
                #expect(config["state_class"] == "measurement", "\(object)")
                #expect(config["state_topic"] == "home/pihole/main/stats")
                #expect(config["unit_of_measurement"]?.stringValue != nil, "\(object)")
            }
            let updated = try await observer.latest("homeassistant/sensor/home2mqtt_home/pihole_main_gravity_last_update/config")
            #expect(updated["device_class"] == "timestamp")
            #expect(updated["state_class"] == nil)
        }
    }

    @Test func queriesAndBlockedAreSummedOverEveryPiHole() async throws {
        try await PiHoleFixture.run(ids: ["alpha", "beta"]) { fixture, observer in
            fixture["alpha"].recordQueries(Self.queries(blocked: 1, forwarded: 3, cached: 0))
            fixture["beta"].recordQueries(Self.queries(blocked: 3, forwarded: 3, cached: 0))
            _ = try await observer.command("home/pihole/refresh")
            let total = try await observer.latest("home/pihole/stats") { $0["queries"] == 10 }
            #expect(total["blocked"] == 4)
            #expect(total["percent_blocked"] == 40)
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/pihole_all_blocked/config")
        }
    }

    @Test func updatesShowInstalledAndLatestVersions() async throws {
        try await PiHoleFixture.run { fixture, observer in
            let current = try await observer.latest("home/pihole/main/updates")
            #expect(current["core"]?["installed"] == "v6.1.4")
            #expect(current["core"]?["latest"] == "v6.1.4")
            #expect(current["update_available"] == false)
            fixture["main"].setLatestVersion("v6.2.0")
            _ = try await observer.command("home/pihole/main/refresh")
            let newer = try await observer.latest("home/pihole/main/updates") { $0["update_available"] == true }
            #expect(newer["ftl"]?["latest"] == "v6.2.0")
            #expect(newer["ftl"]?["installed"] == "v6.1.4")
            for component in ["core", "web", "ftl"] {
                let config = try await observer.latest("homeassistant/update/home2mqtt_home/pihole_main_update_\(component)/config")
                #expect(config["state_topic"] == "home/pihole/main/updates")
                #expect(config["value_template"]?.stringValue?.contains("latest_version") == true)
            }
        }
    }

    /// Another client eating the Pi-hole's API seats shows; so do FTL's warnings.
    @Test func diagnosticsShowSeatsInUseAndWarnings() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addForeignSessions(count: 3)
            fixture["main"].setMessageCount(2)
            _ = try await observer.command("home/pihole/main/refresh")
            // The seats are read before the warnings, and a publish may come between the two reads.
            let diagnostics = try await observer.latest("home/pihole/main/diagnostics") {
                $0["sessions_in_use"] == 4 && $0["sessions_max"] != .null && $0["messages"] != .null
            }
            #expect(diagnostics["sessions_max"] == 16)
            #expect(diagnostics["messages"] == 2)
            #expect(diagnostics["sessions"]?.arrayValue?.filter { $0["this_bridge"] == true }.count == 1)
            let seats = try await observer.latest("homeassistant/sensor/home2mqtt_home/pihole_main_api_sessions/config")
            #expect(seats["entity_category"] == "diagnostic")
        }
    }

    /// Logins whose answers are lost each leave a session on FTL; the seats sensor shows them
    /// gone once the bridge logs in again, and someone else's still there.
    @Test func theSeatsOfLostLoginsAreGivenBack() async throws {
        try await PiHoleFixture.run { fixture, observer in
            let piHole = fixture["main"]
            _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
            try await piHole.setFault(.loseLoginAnswers(2))
            piHole.expireAllSessions()
            _ = piHole.addForeignSessions(count: 2)
            try await waitUntil("two lost logins and a third that succeeded", timeout: .seconds(20)) {
                piHole.fault == nil && piHole.sessionUserAgents.filter { $0 == "home2mqtt/\(Bridge.version)" }.count == 1
            }
            _ = try await observer.command("home/pihole/main/refresh")
            let diagnostics = try await observer.latest("home/pihole/main/diagnostics") { $0["sessions_in_use"] == 3 }
            #expect(diagnostics["sessions"]?.arrayValue?.filter { $0["this_bridge"] == true }.count == 1)
        }
    }

    /// Statistics are read every `stats_interval`, not every blocking poll (1 s here).
    @Test func statisticsKeepTheirOwnSlowerInterval() async throws {
        try await PiHoleFixture.run(extraPiHoleYAML: "  stats_interval: 60\n  diagnostics_interval: 300\n") { fixture, observer in
            _ = try await observer.latest("home/pihole/main/stats")
            let blockingBefore = fixture.calls("main", "/api/dns/blocking").count
            try await waitUntil("three more blocking polls", timeout: .seconds(20)) {
                fixture.calls("main", "/api/dns/blocking").count >= blockingBefore + 3
            }
            #expect(fixture.calls("main", "/api/stats/summary").count == 1)
            #expect(fixture.calls("main", "/api/groups").count == 1)
            #expect(fixture.calls("main", "/api/auth/sessions").count == 1)
            #expect(fixture.calls("main", "/api/info/version").count == 1)
            #expect(fixture["main"].loginCount == 1)
        }
    }
}
