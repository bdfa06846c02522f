import BridgeCore
import BridgeTestSupport
import Foundation
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// `home2mqtt why`, run as the real binary against a running bridge.
@Suite struct WhyCompanionTests {
    static let list = "https://lists.example/games.txt"

    @Test func saysWhatBlocksADomainForAClientAndHowToLetItThrough() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            fixture["main"].addGroup(name: "Kids")
            fixture["main"].addList(address: Self.list, domains: ["||games.example^"], groups: ["Kids"])
            fixture["main"].addClient("192.168.1.20", groups: ["Default", "Kids"])

            let tablet = try await companion(["why", "play.games.example", "--client", "192.168.1.20"] + fixture.brokerArguments)
            #expect(tablet.status == 0, "\(tablet.stderr)")
            #expect(tablet.stdout.split(separator: "\n") == [
                "192.168.1.20 on main is in Default, Kids",
                "play.games.example is blocked on main by: block list \(Self.list) holding ||games.example^ (groups: Kids)",
                "to let it through: home2mqtt allow play.games.example",
            ], "\(tablet.stdout)")

            let anyone = try await companion(["why", "play.games.example"] + fixture.brokerArguments)
            #expect(anyone.status == 0, "\(anyone.stderr)")
            #expect(anyone.stdout.split(separator: "\n") == [
                "play.games.example is not blocked on main: nothing that matches it applies",
                "  also matches: block list \(Self.list) holding ||games.example^ (groups: Kids) (not for the Default group)",
            ], "\(anyone.stdout)")

            let json = try await companion(["why", "play.games.example", "--client", "192.168.1.20", "--json"] + fixture.brokerArguments)
            #expect(JSONValue.parse(Array(json.stdout.utf8))?["data"]?["blocked"] == true, "\(json.stdout)")
        }
    }

    @Test func afterAllowTheDomainIsAllowedByTheExactEntry() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            fixture["main"].addList(address: Self.list, domains: ["school.example"])
            let allowed = try await companion(["allow", "school.example"] + fixture.brokerArguments)
            #expect(allowed.status == 0, "\(allowed.stderr)")
            let why = try await companion(["why", "school.example"] + fixture.brokerArguments)
            #expect(why.status == 0, "\(why.stderr)")
            #expect(why.stdout.split(separator: "\n") == [
                "school.example is allowed on main by an exact allow entry school.example (groups: Default)",
                "  also matches: block list \(Self.list) holding school.example (groups: Default) (overridden)",
            ], "\(why.stdout)")
        }
    }

    @Test func aBadClientIsTheBridgesInvalidPayloadWithNoSearch() async throws {
        try await PiHoleFixture.runOnline { fixture, _ in
            let result = try await companion(["why", "ads.example", "--client", "192.168.1.0/24"] + fixture.brokerArguments)
            #expect(result.status == 3)
            #expect(result.stderr.contains("\"client\" must be an IP address, a MAC address or a host name"), "\(result.stderr)")
            let piece = try await companion(["why", "a%", "--partial"] + fixture.brokerArguments)
            #expect(piece.status == 3, "\(piece.stdout)")
            #expect(fixture.calls("main", "/api/search").isEmpty)
        }
    }
}
