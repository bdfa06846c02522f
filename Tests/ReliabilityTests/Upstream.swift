import BridgeCore
import BridgeTestSupport
import MQTTTestSupport

/// One of the three upstreams of ``AllIntegrations``, and what the fault tests read and ask of it.
typealias Upstream = FixtureUpstream

extension FixtureUpstream {
    /// A command it must carry out.
    func command(_ observer: Observer) async throws -> JSONValue {
        switch self {
        case .pihole: try await observer.command("home/pihole/main/pause", "5", timeout: .seconds(30))
        case .unifi: try await observer.command("home/unifi/rule/downtime-emma/set", "OFF", timeout: .seconds(30))
        case .reef: try await observer.command("home/reef/outlet/heater/set", "ON", timeout: .seconds(30))
        }
    }

    /// Requests its simulator received (the Reef's core only: where its faults go).
    func requests(_ all: AllIntegrations) -> Int {
        switch self {
        case .pihole: all.piHole.requests.count
        case .unifi: all.unifi.requestTotal
        case .reef: all.reef.requests(.core).count
        }
    }

    /// Logins to the upstreams that have them (UniFi's key needs none).
    static func logins(_ all: AllIntegrations) -> [Upstream: Int] {
        [.pihole: all.piHole.loginCount, .reef: all.reef.loginCount]
    }
}
