import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// What a real FTL v6.4.1 and a real mosquitto showed, and the bridge first got wrong.
@Suite struct PiHoleRealDeviceTests {
    private func blockingPosts(_ fixture: PiHoleFixture) -> [PiHoleSimulator.RecordedRequest] {
        fixture.calls("main", "/api/dns/blocking").filter { $0.method == "POST" }
    }

    /// A broker clears the retain flag on live delivery unless the subscription asks it not to:
    /// then a retained command ran, and clearing it ran again as a default pause.
    @Test func retainedCommandsNeverReachThePiHoleWheneverTheyArrive() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let early = try await Observer(broker, subscribe: [])
        try await early.send("home/pihole/pause", "30", retain: true)
        await early.disconnect()
        try await PiHoleFixture.run(broker: broker) { fixture, observer in
            _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
            try await observer.send("home/pihole/main/pause", "20", retain: true)
            try await observer.send("home/pihole/main/pause", "", retain: true)
            try await observer.send("home/pihole/pause", "", retain: true)
            // Messages from one client arrive in order: this answer comes after the three above were seen.
            let answer = try await observer.command("home/pihole/main/pause", "5")
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(blockingPosts(fixture).map { JSONValue.parse(Array($0.body.utf8)) } == [["blocking": false, "timer": 5]])
            #expect(!observer.recorder.messages.contains { $0.topic.hasSuffix("/pause/response") })
        }
    }

    @Test func nullVersionsLeaveThePiHoleAvailable() async throws {
        try await PiHoleFixture.withLastingSimulator(hostName: "pi-main", prepare: { $0.setOnlyFTLVersionKnown(true) }) { simulator, fixture in
            try await fixture.runBridge(yaml: PiHoleFixture.yaml(["main": simulator])) { _, observer in
                let state = try await observer.latest("home/pihole/main") { $0["version"] != .null }
                #expect(state["version"] == "FTL v6.1.4")
                #expect(state["available"] == true)
                #expect(state["error"] == .null)
                #expect(try await observer.latest("home/pihole/main/availability") == "online")
            }
        }
    }

    @Test func anUnreachablePiHoleShowsUnknownWithItsLastKnownState() async throws {
        try await PiHoleFixture.run(ids: ["main", "backup"], extraPiHoleYAML: "  request_timeout: 2\n") { fixture, observer in
            _ = try await observer.latest("home/pihole") { $0["blocking"] == "enabled" }
            try await fixture["backup"].setFault(.down)
            let stale = try await observer.latest("home/pihole/backup", timeout: .seconds(10)) { $0["available"] == false }
            #expect(stale["blocking"] == "unknown")
            #expect(stale["last_known"] == "enabled")
            #expect(stale["last_seen"]?.stringValue != nil)
            let some = try await observer.latest("home/pihole") { $0["instances"]?["backup"] == "unknown" }
            #expect(some["blocking"] == "mixed")
            try await fixture["main"].setFault(.down)
            let none = try await observer.latest("home/pihole", timeout: .seconds(10)) { $0["instances"]?["main"] == "unknown" }
            #expect(none["blocking"] == "unknown")
            try await fixture["main"].setFault(nil)
            _ = try await observer.latest("home/pihole/main", timeout: .seconds(15)) { $0["blocking"] == "enabled" }
        }
    }

    /// The first poll meets an internal error, with an hour between polls: the bridge reads again
    /// within seconds, not an hour later.
    @Test func aFailedPollIsTriedAgainSoonNotAfterTheWholeInterval() async throws {
        try await PiHoleFixture.withLastingSimulator { simulator, fixture in
            try await simulator.setFault(.serverError)
            try await fixture.runBridge(yaml: PiHoleFixture.yaml(["main": simulator], pollInterval: 3600)) { _, observer in
                _ = try await observer.latest("home/pihole/main") { $0["error"] != .null && $0["error"] != nil }
                let failedAt = ContinuousClock.now
                try await simulator.setFault(nil)
                _ = try await observer.latest("home/pihole/main", timeout: .seconds(30)) { $0["available"] == true }
                #expect(ContinuousClock.now - failedAt < .seconds(20), "read again after \(ContinuousClock.now - failedAt)")
            }
        }
    }

    @Test func twoFactorAuthenticationSaysToUseAnAppPasswordAndBacksOff() async throws {
        try await PiHoleFixture.withLastingSimulator(prepare: { $0.setTwoFactor(appPassword: "app password") }) { simulator, fixture in
            try await fixture.runBridge(yaml: PiHoleFixture.yaml(["main": simulator])) { _, observer in
                let state = try await observer.latest("home/pihole/main") { $0["error"] != .null }
                let error = state["error"]?.stringValue ?? ""
                #expect(error.contains("two-factor authentication is on: create an app password"), "\(error)")
                #expect(!error.contains("No 2FA token"))
                #expect(try await observer.latest("home/pihole/main/availability") == "offline")
                try await Task.sleep(for: .seconds(3))
                #expect(simulator.loginCount <= 3)
            }
            try await fixture.runBridge(yaml: PiHoleFixture.yaml(["main": simulator], password: "app password")) { _, observer in
                _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
            }
        }
    }
}
