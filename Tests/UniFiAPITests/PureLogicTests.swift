import Foundation
import JSONDocument
import Testing

@testable import UniFiAPI
@testable import UniFiSimulator

@Suite("UniFi pure logic: error mapping, filters, update bodies")
struct PureLogicTests {
    @Test func proxy401SaysTheKeyWasRefused() {
        let error = UniFiErrorMapping.error(
            status: 401, body: Data(#"{"error":{"code":401,"message":"Unauthorized"}}"#.utf8), retryAfterHeader: nil)
        #expect(error.code == .unauthorized)
        #expect(error.message == "the API key was refused (Unauthorized)")
    }

    @Test func apiErrorsCarryTheControllersMessageAndCode() {
        let body = Data(
            #"{"statusCode":400,"statusName":"BAD_REQUEST","code":"api.request.unknown-property","message":"Unknown request body property '$.id'","timestamp":"2026-01-01T00:00:00Z","requestPath":"/integration/v1/x","requestId":"r"}"#
                .utf8)
        let error = UniFiErrorMapping.error(status: 400, body: body, retryAfterHeader: nil)
        #expect(error.code == .badRequest)
        #expect(error.message == "Unknown request body property '$.id'")
        #expect(error.apiCode == "api.request.unknown-property")
        #expect(UniFiErrorMapping.error(status: 429, body: Data(), retryAfterHeader: "12").retryAfter == .seconds(12))
        #expect(UniFiErrorMapping.error(status: 503, body: Data("<html>".utf8), retryAfterHeader: nil).code == .server)
        #expect(UniFiErrorMapping.error(status: 404, body: Data(), retryAfterHeader: nil).code == .notFound)
        #expect(UniFiErrorMapping.error(status: 302, body: Data(), retryAfterHeader: nil).code == .unexpectedResponse)
    }

    @Test func filterBuilderQuotesAndCombines() {
        let filter = UniFiFilter.and([
            .like("name", UniFiFilter.likeLiteral("it's 1.5*") + "*"),
            .not(.in("id", [.uuid("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"), .uuid("1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e")])),
            .eq("enabled", .bool(true)),
        ])
        #expect(
            filter.expression
                == #"and(name.like('it''s 1\.5\**'),not(id.in(0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d,1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e)),enabled.eq(true))"#)
        #expect(filter.properties == ["name", "id", "enabled"])
        #expect(UniFiFilter.or([.eq("name", .string("a"))]).expression == "name.eq('a')")
        #expect(UniFiFilter.eq("name", .string("a b&c")).queryValue == "name.eq%28%27a%20b%26c%27%29")
    }

    @Test func simulatorParsesWhatTheBuilderWrites() throws {
        let filter = UniFiFilter.or([.eq("name", .string("it's")), .like("name", "down.ime*")])
        let parsed = try FilterParser.parse(filter.expression)
        #expect(parsed == .or([
            .call(property: "name", function: "eq", arguments: [.string("it's")]),
            .call(property: "name", function: "like", arguments: [.string("down.ime*")]),
        ]))
        #expect(try parsed.matches(["name": "downtime-emma"]))
        #expect(try parsed.matches(["name": "it's"]))
        #expect(try !parsed.matches(["name": "Downtime-emma"]))
        #expect(throws: FilterError.self) { try FilterParser.parse("and(name.eq('a'))") }
        #expect(throws: FilterError.self) { try FilterParser.parse("name.eq('a") }
    }

    @Test func likePatterns() {
        #expect(LikePattern("down*").matches("downtime"))
        #expect(LikePattern("d.wn").matches("down"))
        #expect(!LikePattern("d.wn").matches("dwn"))
        #expect(LikePattern(#"a\.b"#).matches("a.b"))
        #expect(!LikePattern(#"a\.b"#).matches("axb"))
        #expect(LikePattern(#"\*x*"#).matches("*xyz"))
        #expect(!LikePattern(#"\*x*"#).matches("axyz"))
    }

    @Test func updateBodyChangesOnlyEnabledAndStripsReadOnlyKeys() throws {
        let raw: JSONValue = [
            "id": "x", "index": 3, "name": "n", "enabled": true, "action": ["type": "BLOCK"],
            "metadata": ["origin": "USER_DEFINED"], "futureField": ["nested": [1, 2]],
        ]
        let policy = try UniFiRule(kind: .firewallPolicy, raw: raw)
        #expect(try UniFiRuleUpdate.body(for: policy, enabled: false)
            == ["name": "n", "enabled": false, "action": ["type": "BLOCK"], "futureField": ["nested": [1, 2]]])
        let acl = try UniFiRule(kind: .acl, raw: raw)
        #expect(try UniFiRuleUpdate.body(for: acl, enabled: false)["index"] == 3)
        let derived = try UniFiRule(kind: .acl, raw: raw.setting("metadata", ["origin": "DERIVED"]))
        #expect(throws: UniFiError.self) { try UniFiRuleUpdate.body(for: derived, enabled: false) }
    }

    @Test func aPageIsReadOnlyWhenEveryFieldIsThere() throws {
        let json = try #require(JSONValue.parse(Array(#"{"offset":0,"limit":2,"count":2,"totalCount":3,"data":[{"id":"a"},{"id":"b"}]}"#.utf8)))
        let page = try #require(UniFiPage(json))
        #expect(page.offset == 0 && page.limit == 2 && page.count == 2 && page.totalCount == 3)
        #expect(page.data.map { $0["id"] } == ["a", "b"])
        for broken in [
            #"{"offset":0,"limit":2,"count":2,"data":[]}"#,  // no totalCount
            #"{"offset":0,"limit":2,"count":1.5,"totalCount":3,"data":[]}"#,  // not a whole number
            #"{"offset":"0","limit":2,"count":2,"totalCount":3,"data":[]}"#,  // a string
            #"{"offset":0,"limit":2,"count":2,"totalCount":3,"data":{}}"#,  // not an array
        ] {
            #expect(UniFiPage(try #require(JSONValue.parse(Array(broken.utf8)))) == nil, "\(broken)")
        }
    }
}
