import Foundation
import JSONDocument
import Testing
import UniFiAPI
import UniFiSimulator

/// `hotspot/vouchers` as spec 10.5.66 has it: the simulator refuses what the document's limits,
/// required fields and filter tables refuse, and answers in the document's shapes.
@Suite struct VoucherSimulatorTests {
    static let path = "/v1/sites/\(UniFiSimulator.defaultSiteID)/hotspot/vouchers"

    private func expectRefused(_ f: UniFiFixture, _ body: JSONValue, code: String, _ message: String) async throws {
        let (status, answer) = try await f.direct(.POST, Self.path, body: body)
        #expect(status == 400, "\(body.encodedString())")
        #expect(answer?["code"]?.stringValue == code, "\(body.encodedString()): \(answer?.encodedString() ?? "")")
        #expect(answer?["message"]?.stringValue == message)
    }

    @Test func creationAnswersTheVouchersWithTheirCodes() async throws {
        try await withUniFi { f in
            let (status, answer) = try await f.direct(.POST, Self.path, body: [
                "name": "Grandma", "timeLimitMinutes": 1440, "count": 2, "authorizedGuestLimit": 1, "rxRateLimitKbps": 2000,
            ])
            #expect(status == 201)
            let made = try #require(answer?["vouchers"]?.arrayValue)
            #expect(made.count == 2)
            for voucher in made {
                #expect(voucher["code"]?.stringValue?.count == 10)
                #expect(voucher["name"] == "Grandma" && voucher["timeLimitMinutes"] == 1440 && voucher["authorizedGuestLimit"] == 1)
                #expect(voucher["rxRateLimitKbps"] == 2000 && voucher["txRateLimitKbps"] == nil)
                #expect(voucher["expired"] == false && voucher["authorizedGuestCount"] == 0 && voucher["expiresAt"] == nil)
            }
            #expect(f.simulator.vouchers().count == 2)
        }
    }

    @Test func outOfRangeMissingUnknownAndMistypedAreRefused() async throws {
        try await withUniFi { f in
            let good: JSONValue = ["name": "x", "timeLimitMinutes": 60]
            for (key, value, limits) in [
                ("timeLimitMinutes", 0, "1 and 1000000"), ("timeLimitMinutes", 1_000_001, "1 and 1000000"), ("count", 0, "1 and 1000"),
                ("count", 1001, "1 and 1000"), ("authorizedGuestLimit", 0, "1 and 9223372036854775807"),
                ("dataUsageLimitMBytes", 1_048_577, "1 and 1048576"), ("rxRateLimitKbps", 1, "2 and 100000"),
                ("txRateLimitKbps", 100_001, "2 and 100000"),
            ] as [(String, Int, String)] {
                try await expectRefused(
                    f, good.setting(key, .number(Double(value))), code: "api.request.argument-out-of-range",
                    "Request body property '$.\(key)' must be between \(limits)")
            }
            try await expectRefused(f, good.removing(["name"]), code: "api.request.missing-property", "Missing required request body property '$.name'")
            try await expectRefused(
                f, good.removing(["timeLimitMinutes"]), code: "api.request.missing-property",
                "Missing required request body property '$.timeLimitMinutes'")
            try await expectRefused(f, good.setting("name", ""), code: "api.request.invalid-value", "Request body property '$.name' must not be empty")
            try await expectRefused(f, good.setting("note", "x"), code: "api.request.unknown-property", "Unknown request body property '$.note'")
            try await expectRefused(
                f, good.setting("count", 1.5), code: "api.request.invalid-property-type", "Request body property '$.count' must be an integer")
            try await expectRefused(
                f, good.setting("dataUsageLimitMBytes", .null), code: "api.request.invalid-property-type",
                "Request body property '$.dataUsageLimitMBytes' must be an integer")
            #expect(f.simulator.vouchers().isEmpty)
        }
    }

    /// The document has the collection and one voucher, nothing deeper: a longer path is not the
    /// collection (it once made vouchers here).
    @Test func aPathBelowAVoucherIsNoVoucherRoute() async throws {
        try await withUniFi { f in
            let deeper = Self.path + "/\(UUID().uuidString.lowercased())/x"
            let (status, _) = try await f.direct(.POST, deeper, body: ["name": "x", "timeLimitMinutes": 60])
            #expect(status == 404)
            #expect(f.simulator.vouchers().isEmpty)
        }
    }

    @Test func listPagesUpToAThousandAndFiltersByTheTable() async throws {
        try await withUniFi(prepare: { $0.addVouchers(count: 150, note: "bulk") }) { f in
            let first = try await f.direct(.GET, Self.path)
            #expect(first.body?["limit"] == 100 && first.body?["count"] == 100 && first.body?["totalCount"] == 150)
            #expect(try await f.direct(.GET, Self.path + "?limit=1000").body?["count"] == 150)
            #expect(try await f.direct(.GET, Self.path + "?limit=1001").status == 400)
            let code = try #require(f.simulator.vouchers().first?["code"]?.stringValue)
            let byCode = try await f.direct(.GET, Self.path + "?filter=" + "code.eq('\(code)')".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(byCode.body?["totalCount"] == 1)
            let byMinutes = try await f.direct(.GET, Self.path + "?filter=timeLimitMinutes.gt(479)")
            #expect(byMinutes.body?["totalCount"] == 150)
            // The table allows code only eq, ne, in, notIn; enabled is no voucher property.
            #expect(try await f.direct(.GET, Self.path + "?filter=" + "code.like('1*')".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!).status == 400)
            #expect(try await f.direct(.GET, Self.path + "?filter=enabled.eq(true)").status == 400)
        }
    }

    @Test func deleteNeedsAFilterAndAnswersTheCount() async throws {
        try await withUniFi(prepare: { $0.addVouchers(count: 3) }) { f in
            let missing = try await f.direct(.DELETE, Self.path)
            #expect(missing.status == 400)
            #expect(missing.body?["code"] == "api.request.missing-parameter")
            #expect(try await f.direct(.DELETE, Self.path + "?filter=expired.gt(true)").status == 400)
            let vouchers = f.simulator.vouchers()
            let one = try await f.direct(.DELETE, Self.path + "/" + vouchers[0]["id"]!.stringValue!)
            #expect(one.status == 200 && one.body == ["vouchersDeleted": 1])
            #expect(try await f.direct(.DELETE, Self.path + "/" + vouchers[0]["id"]!.stringValue!).status == 404)
            let rest = try await f.direct(.DELETE, Self.path + "?filter=expired.eq(false)")
            #expect(rest.body == ["vouchersDeleted": 2])
            #expect(f.simulator.vouchers().isEmpty)
        }
    }

    /// The client: made, listed (every page up to its limit), deleted by id and by code; a
    /// request out of range is refused before it is sent.
    @Test func clientRoundTrip() async throws {
        try await withUniFi(prepare: { $0.addVouchers(count: 450) }) { f in
            let made = try await f.client.createVouchers(site: f.site, UniFiVoucherRequest(minutes: 60, count: 2, guests: 2, note: "party"))
            #expect(made.count == 2 && made.allSatisfy { $0.code?.count == 10 && $0.guestLimit == 2 })
            let listed = try await f.client.activeVouchers(site: f.site, upTo: 250)
            #expect(listed.totalCount == 452 && listed.vouchers.count == 250)
            #expect(try await f.client.deleteVoucher(site: f.site, id: made[0].id) == 1)
            #expect(try await f.client.deleteVoucher(site: f.site, code: made[1].code!) == 1)
            #expect(try await f.client.deleteVoucher(site: f.site, code: made[1].code!) == 0)
            // The most one request makes: its answer is larger than any single thing's.
            #expect(try await f.client.createVouchers(site: f.site, UniFiVoucherRequest(minutes: 60, count: 1000, note: "conference")).count == 1000)
            let posts = f.simulator.requestCount(method: "POST")
            let error = await unifiError { _ = try await f.client.createVouchers(site: f.site, UniFiVoucherRequest(minutes: 0, note: "x")) }
            #expect(error?.code == .badRequest)
            #expect(f.simulator.requestCount(method: "POST") == posts)
        }
    }
}
