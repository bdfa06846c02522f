import JSONDocument
import PlainText
import UpstreamHTTP

/// The guest networks a voucher opens: the Wi-Fi broadcasts with a captive portal
/// (`GET /v1/sites/{siteId}/wifi/broadcasts`, spec 10.5.66 `Wifi broadcast overview`, whose
/// standard kind carries `hotspotConfiguration.type` `CAPTIVE_PORTAL`, where a voucher's code is
/// typed in).
extension UniFiClient {
    /// More than a home broadcasts; a bound on what a card names.
    static let guestNetworkLimit = 20
    /// An SSID is at most 32 bytes; a longer name is clipped, not trusted.
    static let guestNetworkNameLength = 64

    /// The names (SSIDs) of the enabled Wi-Fi broadcasts with a captive portal, as the console
    /// lists them. Filtered by the console and checked again here: a console that ignored the
    /// filter would otherwise put the household's own network on a guest's card.
    public func guestNetworkNames(site: String) async throws -> [String] {
        let filter = UniFiFilter.and([.eq("hotspotConfiguration.type", .string("CAPTIVE_PORTAL")), .eq("enabled", .bool(true))])
        let read = try await pages(
            "/v1/sites/\(site.percentEncodedPathSegment)/wifi/broadcasts", filter: filter, what: "Wi-Fi broadcasts",
            upTo: Self.guestNetworkLimit)
        return try read.items.compactMap(Self.guestNetworkName)
    }

    /// The broadcast's name when it is an enabled one with a captive portal, else `nil`.
    static func guestNetworkName(_ broadcast: JSONValue) throws(UniFiError) -> String? {
        guard let name = broadcast["name"]?.stringValue, let enabled = broadcast["enabled"]?.boolValue else {
            throw UniFiError(.unexpectedResponse, "a Wi-Fi broadcast without name or enabled")
        }
        let portal = broadcast["hotspotConfiguration"]?["type"]?.stringValue == "CAPTIVE_PORTAL"
        return enabled && portal ? String(name.prefix(guestNetworkNameLength)) : nil
    }
}
