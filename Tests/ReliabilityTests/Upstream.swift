import BridgeCore
import BridgeTestSupport
import MQTTTestSupport

/// One of the three upstreams of ``AllIntegrations``, and what the fault tests read and ask of it.
enum Upstream: String, Sendable, CaseIterable {
    case pihole, unifi, reef

    /// Whether its last published state says it is available (nil: nothing published yet).
    func isAvailable(_ observer: Observer) -> Bool? {
        let (topic, read): (String, (JSONValue) -> Bool?) = switch self {
        case .pihole: ("home/pihole/main", { $0["available"]?.boolValue })
        case .unifi: ("home/unifi/controller/home", { $0["available"]?.boolValue })
        case .reef: ("home/reef/core/availability", { $0.stringValue.map { $0 == "online" } })
        }
        guard let last = observer.recorder.messages.last(where: { $0.topic == topic }) else { return nil }
        return read(JSONValue.parse(last.payload) ?? .string(last.payloadString ?? ""))
    }

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
