import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// Admin actions: update gravity, restart DNS, flush the query log.
@Suite struct PiHoleMaintenanceTests {
    /// Gravity streams for a while: the answer comes when it has finished, and pauses meanwhile are
    /// not held back behind it.
    @Test func gravityIsAnsweredWhenItHasFinishedAndHoldsBackNoPause() async throws {
        try await PiHoleFixture.run { fixture, observer in
            let simulator = fixture["main"]
            simulator.setGravityRun(duration: .seconds(8))
            async let gravity = observer.command("home/pihole/main/action/gravity", "", timeout: .seconds(30))
            try await waitUntil("gravity runs", timeout: .seconds(20)) { simulator.isGravityRunning }
            let pause = try await observer.command("home/pihole/main/pause", "30")
            #expect(pause["status"] == "ok")
            #expect(simulator.isGravityRunning, "the pause was answered while gravity still ran")
            let answer = try await gravity
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(simulator.gravityRunsFinished == 1)
            #expect(answer["data"]?["result"] == "ok")
            #expect((answer["data"]?["last_lines"]?.arrayValue?.count ?? 0) > 0)
        }
    }

    @Test func aFailedGravityRunIsAnErrorWithItsFailures() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].setGravityRun(duration: .milliseconds(200), fails: true)
            let answer = try await observer.command("home/pihole/action/gravity", "", timeout: .seconds(30))
            #expect(answer["status"] == "error" && answer["code"] == "upstream_refused")
            #expect(answer["error"]?.stringValue?.contains("gravity failed") == true, "\(answer)")
        }
    }

    @Test func restartDNSAndFlushLogsReachEveryPiHole() async throws {
        try await PiHoleFixture.run(ids: ["alpha", "beta"]) { fixture, observer in
            #expect(try await observer.command("home/pihole/action/restartdns")["status"] == "ok")
            #expect(try await observer.command("home/pihole/beta/action/flush_logs")["status"] == "ok")
            #expect(fixture["alpha"].dnsRestarts == 1)
            #expect(fixture["beta"].dnsRestarts == 1)
            #expect(fixture["alpha"].logFlushes == 0)
            #expect(fixture["beta"].logFlushes == 1)
            _ = try await observer.latest("homeassistant/button/home2mqtt_home/pihole_alpha_action_gravity/config")
        }
    }

    @Test func aRefusedActionSaysWhy() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].setAllowDestructive(false)
            let answer = try await observer.command("home/pihole/main/action/restartdns")
            #expect(answer["status"] == "error" && answer["code"] == "upstream_refused")
            #expect(answer["error"]?.stringValue?.contains("allow_destructive") == true, "\(answer)")
            let wrong = try await observer.command("home/pihole/main/action/reboot")
            #expect(wrong["status"] == "error" && wrong["code"] == "unknown_target")
            let withPayload = try await observer.command("home/pihole/main/action/restartdns", "now")
            #expect(withPayload["status"] == "error" && withPayload["code"] == "invalid_payload")
            #expect(fixture["main"].dnsRestarts == 0)
        }
    }
}
