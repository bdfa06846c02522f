import BridgeCore
@testable import home2mqtt
import Testing

/// `home2mqtt why`'s pure parts: arguments → topic and payload, answers → text.
@Suite struct WhyDescribeTests {
    @Test func mapsTheArgumentsToTheSearchTopicAndQuestion() throws {
        let topics = BridgeTopics(base: "home")
        let plain = try WhyCommand.parse(["ads.example"]).command(topics: topics)
        #expect(plain == BridgeCommand(topic: "home/pihole/search", payload: #"{"domain":"ads.example"}"#))
        let full = try WhyCommand.parse(["ads", "--partial", "--client", "tablet", "--pihole", "main"]).command(topics: topics)
        #expect(full.topic == "home/pihole/main/search")
        #expect(JSONValue.parse(Array(full.payload.utf8)) == ["domain": "ads", "partial": true, "client": "tablet"])
    }

    @Test func namesAPiHoleThatDidNotAnswerAndHintsAtAllowOnlyWhenBlocked() {
        let answer: JSONValue = [
            "domain": "ads.example", "partial": false, "client": nil, "blocked": true, "blocked_on": ["main"],
            "piholes": ["main": [
                "blocked": true, "reason": "deny_entry", "client_groups": ["Default"], "truncated": true,
                "matches": ["domains": [["domain": "ads.example", "kind": "exact", "list": "deny", "groups": ["Default"], "enabled": true, "applies_to_client": true]], "lists": []],
                "decided_by": ["domains": [["domain": "ads.example", "kind": "exact", "list": "deny", "groups": ["Default"], "enabled": true, "applies_to_client": true]], "lists": []],
            ]],
            "errors": ["backup": "backup: Pi-hole error transport: connection refused"],
        ]
        #expect(WhyCommand.describe(answer, target: nil) == [
            "ads.example is blocked on main by: exact deny entry ads.example (groups: Default)",
            "  (more matches on main than shown)",
            "backup did not answer: backup: Pi-hole error transport: connection refused",
            "to let it through: home2mqtt allow ads.example",
        ])
    }

    @Test func aPartialSearchListsEachMatchWithoutAVerdict() {
        let answer: JSONValue = [
            "domain": "ads.", "partial": true, "client": "192.168.1.20", "blocked": nil, "blocked_on": [],
            "piholes": ["main": [
                "blocked": nil, "client_groups": ["Kids"], "client_configured": true, "truncated": false,
                "matches": [
                    "domains": [
                        ["domain": #"^ads\."#, "kind": "regex", "list": "deny", "groups": ["Default"], "enabled": false, "applies_to_client": false,
                         "not_applying": "disabled"],
                        ["domain": "ads.example", "kind": "exact", "list": "deny", "groups": ["Kids"], "enabled": true, "applies_to_client": false,
                         "not_applying": "group_disabled"],
                    ],
                    "lists": [["address": "https://a.example/hosts", "type": "block", "domain": "pixel.ads.example", "groups": ["Default"], "enabled": true, "applies_to_client": false,
                               "not_applying": "not_in_client_groups"]],
                ],
            ]],
            "errors": [:],
        ]
        #expect(WhyCommand.describe(answer, target: "main") == [
            "192.168.1.20 on main is in Kids",
            "on main:",
            #"  regex deny entry ^ads\. (groups: Default) (disabled)"#,
            "  exact deny entry ads.example (groups: Kids) (its group for this client is disabled)",
            "  block list https://a.example/hosts holding pixel.ads.example (groups: Default) (not for this client)",
        ])
    }
}
