import Foundation
import JSONDocument
import Testing
import UniFiAPI
import UniFiSimulator

/// `wifi/broadcasts` as spec 10.5.66 has it, read for a voucher's card: the client names only the
/// enabled networks with a captive portal, and the simulator refuses what the document's filter
/// table and page limits refuse.
@Suite struct GuestNetworkTests {
    static let path = "/v1/sites/\(UniFiSimulator.defaultSiteID)/wifi/broadcasts"

    @Test func onlyTheEnabledNetworksWithACaptivePortalAreGuestNetworks() async throws {
        try await withUniFi(prepare: { $0.addHouseholdWifi() }) { f in
            let names = try await f.client.guestNetworkNames(site: f.site)
            #expect(names == ["Guests"])
            // One request, filtered by the console (the disabled portal and the others never sent).
            let sent = f.simulator.requests.filter { $0.path.contains("wifi/broadcasts") }
            #expect(sent.count == 1)
            #expect(sent.first?.query?.removingPercentEncoding?.contains(
                "filter=and(hotspotConfiguration.type.eq('CAPTIVE_PORTAL'),enabled.eq(true))") == true, "\(sent)")
        }
    }

    @Test func noPortalMeansNoGuestNetwork() async throws {
        try await withUniFi(prepare: { $0.addWifiBroadcast(name: "Home", security: "WPA2_PERSONAL") }) { f in
            let names = try await f.client.guestNetworkNames(site: f.site)
            #expect(names == [])
        }
    }

    @Test func aConsoleThatIgnoresTheFilterStillNamesNoHouseholdNetwork() async throws {
        // Answered as if unfiltered: the client checks each broadcast itself.
        try await withUniFi(prepare: { $0.addHouseholdWifi() }) { f in
            let (status, answer) = try await f.direct(.GET, Self.path)
            #expect(status == 200)
            #expect(answer?["data"]?.arrayValue?.count == 4 && answer?["limit"] == 25 && answer?["totalCount"] == 4)
            let names = answer?["data"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
            #expect(names == ["Home", "Guests", "Guests (old)", "Things"])
        }
    }

    @Test func theSimulatorRefusesWhatTheDocumentRefuses() async throws {
        try await withUniFi(prepare: { $0.addHouseholdWifi() }) { f in
            for (query, message) in [
                ("?filter=passphrase.eq('x')", "Property 'passphrase' cannot be used in a filter"),
                ("?filter=enabled.in(true)", "Function 'in' cannot be used with property 'enabled'"),
                ("?filter=hotspotConfiguration.type.like('CAPTIVE*')", "Function 'like' cannot be used with property 'hotspotConfiguration.type'"),
            ] {
                let (status, answer) = try await f.direct(.GET, Self.path + query.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)
                #expect(status == 400, "\(query)")
                #expect(answer?["code"] == "api.request.invalid-filter" && answer?["message"]?.stringValue == message, "\(query): \(answer?.encodedString() ?? "")")
            }
            let (status, answer) = try await f.direct(.GET, Self.path + "?limit=201")
            #expect(status == 400 && answer?["code"] == "api.request.argument-out-of-range")
            #expect(try await f.direct(.GET, Self.path + "/not-a-uuid").status == 400)
            #expect(try await f.direct(.GET, Self.path + "/" + UUID().uuidString.lowercased()).status == 404)
            #expect(try await f.direct(.POST, Self.path, body: ["name": "x"]).status == 405)
            #expect(try await f.direct(.GET, Self.path + "/a/b").status == 404)
        }
    }
}
