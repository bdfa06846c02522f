import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// `home2mqtt outlet` and `status` with the aquarium, as a user runs them: the real binary
/// against a real broker and an in-process bridge wired to a Bella's Reef simulator.
@Suite(.serialized) struct ReefCompanionTests {
    private static let returnPump = SimulatedOutlet.observed[1].id

    private func runOnline(_ body: (ReefFixture, [String]) async throws -> Void) async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            _ = try await observer.latest("home/reef/probe/sump") { $0["status"] == "ok" }
            try await body(fixture, ["--host", fixture.broker.host, "--port", String(fixture.broker.port)])
        }
    }

    @Test func outletSwitchesForAWhileAndSaysWhenItComesBack() async throws {
        try await runOnline { fixture, broker in
            let result = try await companion(["outlet", "return-pump", "off", "--for", "10m"] + broker)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Return Pump is off, back on at "), "\(result.stdout)")
            #expect(fixture.simulator.outlet(Self.returnPump)?.isOn == false)
            let unknown = try await companion(["outlet", "skimmer", "on"] + broker)
            #expect(unknown.status == 4)
            #expect(unknown.stderr.contains("unknown outlet 'skimmer' (known: heater, offline-plug, return-pump)"), "\(unknown.stderr)")
        }
    }

    @Test func statusShowsTheAquarium() async throws {
        try await runOnline { _, broker in
            let result = try await companion(["status"] + broker)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("reef") && $0.contains("online") }, "\(result.stdout)")
            #expect(lines.contains { $0.contains("return-pump") && $0.contains("Return Pump") && $0.contains("on") && $0.contains("24.5") }, "\(result.stdout)")
            #expect(lines.contains { $0.contains("sump") && $0.contains("25.5") && $0.contains("°C") }, "\(result.stdout)")
            // The indexes and the health summary repeat the rows: left out. The lone system row is a list.
            #expect(!lines.contains { $0.hasPrefix("  health") || $0.hasPrefix("  outlets ") || $0.hasPrefix("  probes ") }, "\(result.stdout)")
            #expect(lines.contains { $0.hasPrefix("    model") && $0.contains("Raspberry Pi 4") }, "\(result.stdout)")
        }
    }
}
