import BellasReefSimulator
import BellasReefTestSupport
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import UniFiTestSupport

/// A broker and the three simulators, with the configuration that wires the real executable to
/// them: for tests of the process as a whole (a burst, a load, a real Home Assistant).
public struct AllUpstreams: Sendable {
    public let broker: TestBroker
    public let piHole: PiHoleSimulator
    public let unifi: UniFiFixture
    public let reef: BellasReefSimulator

    /// Starts them for the length of `body`, and stops them after.
    public static func run(_ body: (AllUpstreams) async throws -> Void) async throws {
        try await UniFiFixture.withSimulator { unifi in
            let reef = BellasReefSimulator()
            try await reef.start()
            let piHole = PiHoleSimulator(hostName: "pi-main")
            try await piHole.start()
            // Not awaited: a simulator still holding a stalled request may take its time to stop.
            defer { Task { await piHole.stop(); await reef.stop() } }
            try await body(AllUpstreams(broker: unifi.broker, piHole: piHole, unifi: unifi, reef: reef))
        }
    }

    /// A configuration file for the executable: `bridge` and `piHoleExtra` are added to the
    /// `bridge:` and `pihole:` sections, `sections` (top-level ones: `scenes:`) at the end.
    public func configFile(bridge: String = "", piHoleExtra: String = "", sections: String = "") throws -> String {
        try BridgeProcess.writeConfig(
            "mqtt:\n  port: \(broker.port)\nbridge:\n  discovery: true\n\(bridge)"
                + PiHoleFixture.yaml(["main": piHole], extra: piHoleExtra) + unifi.yaml() + ReefFixture.yaml(reef) + sections)
    }

    /// Waits until the bridge shows all three upstreams.
    public static func waitUntilServing(_ observer: Observer) async throws {
        _ = try await observer.latest("home/pihole/main", timeout: .seconds(30)) { $0["available"] == true }
        _ = try await observer.latest("home/unifi/rules") { $0["downtime-emma"] != nil }
        _ = try await observer.latest("home/reef/outlets") { $0["heater"] != nil }
    }
}
