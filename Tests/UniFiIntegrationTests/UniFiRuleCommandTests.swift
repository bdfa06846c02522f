import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import Testing
import UniFiSimulator
import UniFiTestSupport

private typealias F = UniFiSimulatorFixtures

@Suite struct UniFiRuleCommandTests {
    @Test func publishesEveryManagedRuleAndNothingElse() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                let index = try await observer.latest("home/unifi/rules") { $0["downtime-leo"] != nil }
                #expect(Set((index.objectValue ?? [:]).keys) == ["downtime-emma", "downtime-tablet", "downtime-guest-derived", "downtime-leo"])
                let emma = try await observer.latest("home/unifi/rule/downtime-emma")
                #expect(emma["id"] == .string(F.downtimeEmmaID))
                #expect(emma["kind"] == "acl")
                #expect(emma["enabled"] == true)
                #expect(emma["action"] == "BLOCK")
                #expect(emma["origin"] == "USER_DEFINED")
                #expect(emma["restore_at"] == .null)
                #expect(try await observer.latest("home/unifi/rule/downtime-leo")["kind"] == "firewall_policy")
                #expect(try await observer.latest("home/unifi/controller/home/availability") == "online")
                #expect(try await observer.latest("home/unifi/availability") == "online")
                #expect(try await observer.latest("home/unifi/controller/home")["application_version"] == "10.5.66")
            }
        }
    }

    /// GET → only `enabled` changed → PUT of the whole object, which the strict simulator accepts.
    @Test func switchesEachKindAndSendsTheWholeRuleBack() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.latest("home/unifi/rules") { $0["downtime-leo"] != nil }
                for (key, id, collection, payload, expected) in [
                    ("downtime-emma", F.downtimeEmmaID, UniFiSimulator.Collection.aclRules, "OFF", false),
                    ("downtime-tablet", F.downtimeTabletID, .aclRules, "true", true),
                    ("downtime-leo", F.downtimeLeoID, .firewallPolicies, #"{"enabled":false}"#, false),
                ] {
                    let before = fixture.simulator.rule(collection, id: id)!
                    let answer = try await observer.command("home/unifi/rule/\(key)/set", payload)
                    #expect(answer["status"] == "ok", "\(key): \(answer)")
                    #expect(answer["data"]?["enabled"] == .bool(expected))
                    let put = try #require(fixture.simulator.putBodies(pathContaining: id).last)
                    var sent = before.removing(["id", "metadata"] + (collection == .firewallPolicies ? ["index"] : []))
                    sent = sent.setting("enabled", .bool(expected))
                    #expect(put == sent, "\(key): the PUT body is the rule as read, with only enabled changed")
                    _ = try await observer.latest("home/unifi/rule/\(key)") { $0["enabled"] == .bool(expected) }
                }
                // By id in place of the key, too.
                #expect(try await observer.command("home/unifi/rule/\(F.downtimeEmmaID)/set", "ON")["data"]?["enabled"] == true)
            }
        }
    }

    /// A command's rule goes out on its state topic by itself (only that rule's state is
    /// published), with its restore: no poll comes in between here.
    @Test func aCommandPublishesItsRuleWithoutAPoll() async throws {
        try await UniFiFixture.withSimulator { fixture in
            let yaml = fixture.yaml().replacingOccurrences(of: "poll_interval: 5", with: "poll_interval: 3600")
            try await fixture.runBridge(yaml: yaml) { observer in
                _ = try await observer.latest("home/unifi/rules") { $0["downtime-leo"] != nil }
                let polls = { fixture.simulator.requests.filter { $0.method == "GET" && $0.path.hasSuffix("/acl-rules") }.count }
                let pollsBefore = polls()
                _ = try await observer.command("home/unifi/rule/downtime-emma/set", #"{"enabled":false,"for":600}"#)
                let emma = try await observer.latest("home/unifi/rule/downtime-emma") { $0["enabled"] == false }
                #expect(emma["restore_to"] == true)
                #expect(emma["restore_at"]?.stringValue != nil)
                _ = try await observer.command("home/unifi/rule/downtime-leo/set", "OFF")
                _ = try await observer.latest("home/unifi/rule/downtime-leo") { $0["enabled"] == false }
                #expect(try await observer.latest("home/unifi/rule/downtime-emma")["enabled"] == false, "the other rule is left as it was")
                #expect(polls() == pollsBefore)
            }
        }
    }

    @Test(arguments: [
        ("downtime-emma", "maybe"), ("downtime-emma", ""), ("downtime-emma", #"{"enabled":"yes"}"#),
        ("downtime-emma", #"{"enabled":false,"for":-5}"#), ("downtime-emma", #"{"enabled":false,"for":99999999}"#),
        ("downtime-emma", #"{"enabled":false,"for":60,"until":"2030-01-01T00:00:00Z"}"#),
        ("downtime-emma", #"{"enabled":true,"colour":"red"}"#), ("downtime-emma", "[1,2]"),
        ("no-such-rule", "ON"), ("downtime-guest-derived", "OFF"), ("block-invalid-traffic", "OFF"),
    ])
    func badCommandsAreRefusedWithoutAnyWrite(key: String, payload: String) async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.latest("home/unifi/rules") { $0["downtime-leo"] != nil }
                let answer = try await observer.command("home/unifi/rule/\(key)/set", payload)
                #expect(answer["status"] == "error", "\(key) \(payload) → \(answer)")
                #expect(fixture.simulator.requestCount(method: "PUT") == 0)
            }
        }
    }

    /// A second command for a rule that arrives while the first is carried out waits for it; the
    /// last one wins, as sent. (The console answers the rule's requests 300 ms late, and the
    /// second is sent once the first's read has reached it: two commands sent at once from two
    /// tasks reach the broker in either order.)
    @Test func commandsForOneRuleRunInTurn() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.latest("home/unifi/rules") { $0["downtime-emma"] != nil }
                let readsBefore = fixture.simulator.requestCount(method: "GET", pathContaining: F.downtimeEmmaID)
                fixture.simulator.inject(.delay(.milliseconds(300)), pathContaining: F.downtimeEmmaID)
                async let first = observer.command("home/unifi/rule/downtime-emma/set", "OFF")
                try await waitUntil("the first command's read of the rule", timeout: .seconds(10)) {
                    fixture.simulator.requestCount(method: "GET", pathContaining: F.downtimeEmmaID) > readsBefore
                }
                async let second = observer.command("home/unifi/rule/\(F.downtimeEmmaID)/set", "ON")
                let answers = try await [first, second]
                #expect(answers.allSatisfy { $0["status"] == "ok" }, "\(answers)")
                #expect(fixture.simulator.putBodies(pathContaining: F.downtimeEmmaID).map { $0["enabled"] } == [false, true])
                // In turn: the second command reads the rule only once the first has written it.
                let ruleRequests = fixture.simulator.requests.filter { $0.path.contains(F.downtimeEmmaID) }.map(\.method)
                #expect(ruleRequests.suffix(4) == ["GET", "PUT", "GET", "PUT"], "\(ruleRequests)")
                #expect(fixture.simulator.rule(.aclRules, id: F.downtimeEmmaID)?["enabled"] == true)
            }
        }
    }

    @Test func fourHundredFiftyRulesOverThreePages() async throws {
        try await UniFiFixture.withSimulator(prepare: { _ = $0.addGeneratedACLRules(count: 450, namePrefix: "downtime-gen") }) { fixture in
            try await fixture.runBridge { observer in
                // Not a time under test: 450 rules and their entities, in a debug build, beside the other suites.
                let index = try await observer.latest("home/unifi/rules", timeout: .seconds(45)) { $0.objectValue?.count == 450 }
                #expect(index.objectValue?.count == 450)
                let pages = fixture.simulator.requests.filter { $0.method == "GET" && $0.path.hasSuffix("/acl-rules") }
                let queries = pages.prefix(3).map { $0.query ?? "" }
                #expect(queries.count == 3)
                #expect(zip(queries, ["offset=0", "offset=200", "offset=400"]).allSatisfy { $0.contains($1) }, "\(queries)")
            }
        }
    }
}
