import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// "Why is this blocked?": `home/pihole/search` against the simulators, through the broker.
@Suite struct PiHoleSearchTests {
    static let stevenBlack = "https://raw.githubusercontent.com/StevenBlack/hosts/master/hosts"

    @Test func anExactDenyEntryBlocksAndIsNamed() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addDomain("ads.example", list: "deny")
            let answer = try await observer.command("home/pihole/search", "ads.example")
            #expect(answer["status"] == "ok", "\(answer)")
            let data = try #require(answer["data"])
            #expect(data["blocked"] == true)
            #expect(data["blocked_on"] == ["main"])
            let main = try #require(data["piholes"]?["main"])
            #expect(main["reason"] == "deny_entry")
            #expect(main["matches"]?["domains"] == [[
                "domain": "ads.example", "kind": "exact", "list": "deny", "groups": ["Default"], "enabled": true, "applies_to_client": true,
                "not_applying": .null,
            ]])
            #expect(main["decided_by"]?["domains"] == main["matches"]?["domains"])
            #expect(main["client_groups"] == ["Default"])
            let call = try #require(fixture.calls("main", "/api/search/").last)
            #expect(call.path == "/api/search/ads.example")
            #expect(call.query == "partial=false&N=100")
        }
    }

    @Test func aRegexDenyEntryBlocksWhatItMatches() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addDomain(#"(^|\.)tracker\.example$"#, list: "deny", kind: "regex")
            let hit = try await observer.command("home/pihole/search", #"{"domain":"Pixel.Tracker.example"}"#)
            #expect(hit["data"]?["domain"] == "pixel.tracker.example")
            #expect(hit["data"]?["piholes"]?["main"]?["reason"] == "deny_entry", "\(hit)")
            #expect(hit["data"]?["piholes"]?["main"]?["decided_by"]?["domains"]?.arrayValue?.first?["kind"] == "regex")
            let miss = try await observer.command("home/pihole/search", "tracker.example.org")
            #expect(miss["data"]?["blocked"] == false)
            #expect(miss["data"]?["piholes"]?["main"]?["reason"] == "no_match")
        }
    }

    @Test func aBlockListBlocksTheDomainAndWhatItsABPPatternCovers() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addList(address: Self.stevenBlack, domains: ["ads.example", "||doubleclick.example^"])
            let plain = try await observer.command("home/pihole/search", "ads.example")
            let main = plain["data"]?["piholes"]?["main"]
            #expect(main?["reason"] == "block_list", "\(plain)")
            #expect(main?["matches"]?["lists"] == [[
                "address": .string(Self.stevenBlack), "type": "block", "domain": "ads.example", "groups": ["Default"], "enabled": true,
                "applies_to_client": true, "not_applying": .null,
            ]])
            let sub = try await observer.command("home/pihole/search", "stats.g.doubleclick.example")
            #expect(sub["data"]?["blocked"] == true)
            #expect(sub["data"]?["piholes"]?["main"]?["decided_by"]?["lists"]?.arrayValue?.first?["domain"] == "||doubleclick.example^")
        }
    }

    @Test func anAllowEntryOverridesDenyEntriesAndListsAndAnAllowListOverridesAListOnly() async throws {
        try await PiHoleFixture.run { fixture, observer in
            let main = fixture["main"]
            main.addList(address: Self.stevenBlack, domains: ["shop.example", "cdn.shop.example"])
            main.addDomain("shop.example", list: "deny")
            main.addDomain("shop.example", list: "allow")
            main.addDomain(#"^cdn\."#, list: "allow", kind: "regex")
            let shop = try await observer.command("home/pihole/search", "shop.example")
            #expect(shop["data"]?["blocked"] == false, "\(shop)")
            #expect(shop["data"]?["piholes"]?["main"]?["reason"] == "allow_entry")
            #expect(shop["data"]?["piholes"]?["main"]?["decided_by"]?["domains"]?.arrayValue?.map { $0["list"] } == ["allow"])
            #expect(shop["data"]?["piholes"]?["main"]?["matches"]?["domains"]?.arrayValue?.count == 2)
            let cdn = try await observer.command("home/pihole/search", "cdn.shop.example")
            #expect(cdn["data"]?["piholes"]?["main"]?["reason"] == "allow_entry", "\(cdn)")

            main.addList(address: "https://lists.example/allow.txt", type: "allow", domains: ["@@||video.example^"])
            main.addList(address: "https://lists.example/video.txt", domains: ["video.example", "ads.video.example"])
            main.addDomain("ads.video.example", list: "deny")
            let video = try await observer.command("home/pihole/search", "video.example")
            #expect(video["data"]?["piholes"]?["main"]?["reason"] == "allow_list", "\(video)")
            let ads = try await observer.command("home/pihole/search", "ads.video.example")
            #expect(ads["data"]?["piholes"]?["main"]?["reason"] == "deny_entry", "an allow list does not beat a deny entry: \(ads)")
            #expect(ads["data"]?["piholes"]?["main"]?["decided_by"]?["lists"] == [])
        }
    }

    @Test func aClientIsJudgedByItsOwnGroups() async throws {
        try await PiHoleFixture.run { fixture, observer in
            let main = fixture["main"]
            main.addGroup(name: "Kids")
            main.addGroup(name: "Guests", enabled: false)
            main.addList(address: "https://lists.example/games.txt", domains: ["||games.example^"], groups: ["Kids"])
            main.addDomain("chat.example", list: "deny", groups: ["Guests"])
            main.addClient("192.168.1.20", groups: ["Kids"])
            main.addClient("AA:BB:CC:DD:EE:FF", groups: ["Default", "Guests"])
            // The clients are also read with the groups (for client commands): count the searches' own reads.
            _ = try await observer.latest("home/pihole/main/clients")
            let readsBefore = fixture.calls("main", "/api/clients").count

            let tablet = try await observer.command("home/pihole/search", #"{"domain":"play.games.example","client":"192.168.1.20"}"#)
            let onMain = tablet["data"]?["piholes"]?["main"]
            #expect(tablet["data"]?["blocked"] == true, "\(tablet)")
            #expect(onMain?["client_configured"] == true)
            #expect(onMain?["client_groups"] == ["Kids"])
            #expect(onMain?["matches"]?["lists"]?.arrayValue?.first?["applies_to_client"] == true)

            let unknown = try await observer.command("home/pihole/search", #"{"domain":"play.games.example","client":"192.168.1.30"}"#)
            let forUnknown = unknown["data"]?["piholes"]?["main"]
            #expect(unknown["data"]?["blocked"] == false, "\(unknown)")
            #expect(forUnknown?["client_configured"] == false)
            #expect(forUnknown?["client_groups"] == ["Default"])
            #expect(forUnknown?["reason"] == "none_applies")
            #expect(forUnknown?["matches"]?["lists"]?.arrayValue?.first?["applies_to_client"] == false)

            // A disabled group's entries apply to no one; a MAC is found whatever its letter case.
            let phone = try await observer.command("home/pihole/search", #"{"domain":"chat.example","client":"aa:bb:cc:dd:ee:ff"}"#)
            #expect(phone["data"]?["piholes"]?["main"]?["client_configured"] == true, "\(phone)")
            #expect(phone["data"]?["piholes"]?["main"]?["reason"] == "none_applies")
            #expect(fixture.calls("main", "/api/clients").count - readsBefore == 3)
        }
    }

    @Test func everyPiHoleIsAskedAndOneThatDoesNotAnswerIsNamed() async throws {
        try await PiHoleFixture.run(ids: ["alpha", "beta"]) { fixture, observer in
            fixture["alpha"].addDomain("ads.example", list: "deny")
            try await fixture["beta"].setFault(.serverError)
            let answer = try await observer.command("home/pihole/search", "ads.example")
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["data"]?["blocked_on"] == ["alpha"])
            #expect(answer["data"]?["errors"]?["beta"]?.stringValue?.contains("beta") == true, "\(answer)")
            #expect(answer["data"]?["piholes"]?.objectValue?.keys.sorted() == ["alpha"])
            let one = try await observer.command("home/pihole/beta/search", "ads.example")
            #expect(one["status"] == "error" && one["code"] == "upstream_unavailable", "only beta asked, and it did not answer: \(one)")
            _ = try await observer.latest("home/pihole/beta") { $0["available"] == false }
            try await fixture["beta"].setFault(nil)
            _ = try await observer.latest("home/pihole/beta") { $0["available"] == true }
            let both = try await observer.command("home/pihole/search", "ads.example")
            #expect(both["data"]?["piholes"]?["beta"]?["blocked"] == false, "\(both)")
        }
    }

    @Test func aPartialSearchListsWhatContainsThePieceWithoutAVerdict() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addDomain("ads.example", list: "deny")
            fixture["main"].addDomain("tracker.example", list: "allow")
            fixture["main"].addList(address: Self.stevenBlack, domains: ["pixel.ads.example", "shop.example"])
            let answer = try await observer.command("home/pihole/search", #"{"domain":"ADS.","partial":true}"#)
            let main = answer["data"]?["piholes"]?["main"]
            #expect(answer["data"]?["blocked"] == .null, "\(answer)")
            #expect(main?["reason"] == nil)
            #expect(main?["matches"]?["domains"]?.arrayValue?.map { $0["domain"] } == ["ads.example"])
            #expect(main?["matches"]?["lists"]?.arrayValue?.map { $0["domain"] } == ["pixel.ads.example"])
            #expect(fixture.calls("main", "/api/search/").last?.query == "partial=true&N=100")
        }
    }

    /// A search has a lane of its own: it is not queued behind the commands of the Pi-hole's lane.
    @Test func aSearchDoesNotWaitBehindPausesOfThePiHole() async throws {
        try await PiHoleFixture.run { fixture, observer in
            try await fixture["main"].setFault(.delay(.milliseconds(300)))
            for seconds in 10..<18 { try await observer.send("home/pihole/main/pause", "\(seconds)") }
            let answer = try await observer.command("home/pihole/main/search", "ads.example")
            #expect(answer["status"] == "ok", "\(answer)")
            let pausesAnswered = observer.recorder.messages.filter { $0.topic == "home/pihole/main/pause/response" }.count
            #expect(pausesAnswered < 8, "the search was answered only after every pause")
            try await fixture["main"].setFault(nil)
        }
    }

    static let badQuestions = [
        "", "has space.example", "a..b", "-lead.example", "ads.example/../api/auth", "ünïcode.example", "[1]", #"{"domain":["ads.example"]}"#,
        #"{"domain":5}"#, #"{"partial":true}"#, #"{"domain":"ads.example","colour":1}"#, #"{"domain":"ads.example","partial":"yes"}"#,
        #"{"domain":"ad","partial":true}"#, #"{"domain":"ads%","partial":true}"#, #"{"domain":"a?b","partial":true}"#,
        #"{"domain":"ads.example","client":"192.168.1.0/24"}"#, #"{"domain":"ads.example","client":"x&y"}"#,
        #"{"domain":"ads.example","client":5}"#, #"{"domain":"ads.example","client":":eth0"}"#,
    ]

    @Test func aBadQuestionIsRefusedWithoutAnyRequest() async throws {
        try await PiHoleFixture.run { fixture, observer in
            // The clients are also read with the groups (for client commands): count the searches' own reads.
            _ = try await observer.latest("home/pihole/main/clients")
            let clientReadsBefore = fixture.calls("main", "/api/clients").count
            for payload in Self.badQuestions {
                let answer = try await observer.command("home/pihole/search", payload)
                #expect(answer["status"] == "error", "\(payload) → \(answer)")
                #expect(answer["error"]?.stringValue?.isEmpty == false)
            }
            #expect(fixture.calls("main", "/api/search").isEmpty)
            #expect(fixture.calls("main", "/api/clients").count == clientReadsBefore)
            // The same Pi-hole answers a good question right after.
            #expect(try await observer.command("home/pihole/search", "ads.example")["status"] == "ok")
        }
    }
}
