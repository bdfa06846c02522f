#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

extension UniFiSimulator {
    // MARK: - Wi-Fi broadcasts

    /// The household's Wi-Fi, as a demo and the page's tests have it: `Home` (WPA2), `Guests`
    /// (open, with the captive portal where vouchers are typed in), `Guests (old)` (a portal,
    /// switched off) and `Things` (IoT-optimised, which has no portal).
    public func addHouseholdWifi(site: String = UniFiSimulator.defaultSiteID) {
        addWifiBroadcast(name: "Home", security: "WPA2_PERSONAL", site: site)
        addWifiBroadcast(name: "Guests", captivePortal: true, site: site)
        addWifiBroadcast(name: "Guests (old)", enabled: false, captivePortal: true, site: site)
        addWifiBroadcast(name: "Things", kind: "IOT_OPTIMIZED", security: "WPA2_PERSONAL", site: site)
    }

    /// A Wi-Fi broadcast as `GET …/wifi/broadcasts` lists it (spec 10.5.66 `Wifi broadcast
    /// overview`: a STANDARD one carries its frequencies and, with a portal, `hotspotConfiguration`).
    public func addWifiBroadcast(
        name: String, kind: String = "STANDARD", enabled: Bool = true, security: String = "OPEN", captivePortal: Bool = false,
        site: String = UniFiSimulator.defaultSiteID
    ) {
        var broadcast: [String: JSONValue] = [
            "type": .string(kind), "id": .string(UUID().uuidString.lowercased()), "name": .string(name), "enabled": .bool(enabled),
            "metadata": ["origin": "USER_DEFINED"], "network": ["type": "NATIVE"], "securityConfiguration": ["type": .string(security)],
        ]
        if kind == "STANDARD" { broadcast["broadcastingFrequenciesGHz"] = [2.4, 5] }
        if captivePortal { broadcast["hotspotConfiguration"] = ["type": "CAPTIVE_PORTAL"] }
        core.withLockedValue { $0.wifiBroadcasts[site.lowercased(), default: []].append(.object(broadcast)) }
    }
}
