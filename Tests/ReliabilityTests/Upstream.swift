import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport

/// One of the three upstreams of ``AllIntegrations``, and what the fault tests read and ask of it.
enum Upstream: String, Sendable, CaseIterable {
    case pihole, unifi, reef

    /// Whether its last published state says it is available (nil: nothing published yet).
    func isAvailable(_ observer: Observer) -> Bool? {
        availability(observer.recorder.messages).last ?? nil
    }

    /// Whether it was published unavailable at any time after the first `skipping` messages the
    /// observer received: a command that succeeds publishes it available again at once, so the
    /// last state alone would hide a poll that darkened it meanwhile.
    func wasUnavailable(_ observer: Observer, after skipping: Int) -> Bool {
        availability(Array(observer.recorder.messages.dropFirst(skipping))).contains(false)
    }

    private func availability(_ messages: [MQTTMessage]) -> [Bool?] {
        let (topic, read): (String, (JSONValue) -> Bool?) = switch self {
        case .pihole: ("home/pihole/main", { $0["available"]?.boolValue })
        case .unifi: ("home/unifi/controller/home", { $0["available"]?.boolValue })
        case .reef: ("home/reef/core/availability", { $0.stringValue.map { $0 == "online" } })
        }
        return messages.filter { $0.topic == topic }.map { read(JSONValue.parse($0.payload) ?? .string($0.payloadString ?? "")) }
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
