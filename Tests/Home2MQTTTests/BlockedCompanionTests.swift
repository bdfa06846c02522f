import BridgeTestSupport
import Foundation
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// `home2mqtt blocked`, run as the real binary against a running bridge.
@Suite struct BlockedCompanionTests {
    @Test func listsWhatWasBlockedForOneClientThenAllowSetsItFree() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            let now = Date()
            fixture["main"].recordQueries([
                SimulatedQuery(time: now - 60, domain: "cdn.shop.example", clientIP: "192.168.1.23", clientName: "tablet", status: "GRAVITY"),
                SimulatedQuery(time: now - 30, domain: "ads.example", clientIP: "192.168.1.40", status: "GRAVITY"),
            ])
            let result = try await companion(["blocked", "--minutes", "5", "--client", "192.168.1.23"] + fixture.brokerArguments)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 1, "\(result.stdout)")
            #expect(lines.first?.contains("cdn.shop.example  ×1  tablet (192.168.1.23)") == true, "\(result.stdout)")
            let query = try #require(fixture.calls("main", "/api/queries").last?.query)
            #expect(query.contains("client_ip=192.168.1.23"))

            let allowed = try await companion(["allow", "cdn.shop.example"] + fixture.brokerArguments)
            #expect(allowed.status == 0, "\(allowed.stderr)")
            #expect(fixture["main"].domains("allow", kind: "exact") == ["cdn.shop.example"])
        }
    }

    @Test func aBadClientIsTheBridgesInvalidPayload() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            let result = try await companion(["blocked", "--client", "everyone"] + fixture.brokerArguments)
            #expect(result.status == 3)
            #expect(result.stderr.contains("IP address"), "\(result.stderr)")
            #expect(fixture.calls("main", "/api/queries").isEmpty)
        }
    }
}
