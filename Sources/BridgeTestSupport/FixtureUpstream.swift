import BridgeCore
import MQTT

/// The three upstreams as the all-integration fixtures name them (the Pi-hole `main`, the UniFi
/// console `home`, the Reef's `core` service), and how the bridge says whether each answers.
public enum FixtureUpstream: String, Sendable, CaseIterable {
    case pihole, unifi, reef

    /// Whether its last published state says it is available (nil: nothing published yet).
    public func isAvailable(_ observer: Observer) -> Bool? {
        availability(observer.recorder.messages).last ?? nil
    }

    /// Whether it was published unavailable at any time after the first `skipping` messages the
    /// observer received: a command that succeeds publishes it available again at once, so the
    /// last state alone would hide a poll that darkened it meanwhile.
    public func wasUnavailable(_ observer: Observer, after skipping: Int) -> Bool {
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
}
