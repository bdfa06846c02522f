import JSONDocument
import Testing
import UniFiAPI
import UniFiSimulator

@Suite("UniFiClient toggles: GET → only enabled changed → PUT the whole rule, its answer returned")
struct ClientToggleTests {
    typealias F = UniFiSimulatorFixtures

    @Test func ipv4RuleKeepsEveryNestedField() async throws {
        try await withUniFi { f in
            let before = try #require(f.simulator.rule(.aclRules, id: F.downtimeEmmaID))
            let switched = try await f.client.setEnabled(kind: .acl, site: f.site, id: F.downtimeEmmaID, enabled: false)
            #expect(switched.enabled == false)
            let bodies = f.simulator.putBodies(pathContaining: F.downtimeEmmaID)
            #expect(bodies.count == 1)
            // description, enforcingDeviceFilter, protocolFilter and the filters' portFilter are
            // not in UniFiRule's model: they come back exactly as they were sent.
            #expect(bodies.first == before.removing(["id", "metadata"]).setting("enabled", false))
            #expect(f.simulator.rule(.aclRules, id: F.downtimeEmmaID) == before.setting("enabled", false))
            #expect(f.simulator.requests.map(\.method) == ["GET", "PUT"])
        }
    }

    @Test func macRuleTogglesOn() async throws {
        try await withUniFi { f in
            let before = try #require(f.simulator.rule(.aclRules, id: F.downtimeTabletID))
            let switched = try await f.client.setEnabled(kind: .acl, site: f.site, id: F.downtimeTabletID, enabled: true)
            #expect(switched.enabled)
            #expect(f.simulator.putBodies() == [before.removing(["id", "metadata"]).setting("enabled", true)])
        }
    }

    @Test func firewallPolicyStripsIndexToo() async throws {
        try await withUniFi { f in
            let before = try #require(f.simulator.rule(.firewallPolicies, id: F.downtimeLeoID))
            let switched = try await f.client.setEnabled(kind: .firewallPolicy, site: f.site, id: F.downtimeLeoID, enabled: false)
            #expect(switched.enabled == false)
            #expect(switched.raw["index"] == before["index"])
            #expect(f.simulator.putBodies() == [before.removing(["id", "metadata", "index"]).setting("enabled", false)])
        }
    }

    @Test func derivedAndSystemRulesAreRefusedWithoutAPut() async throws {
        try await withUniFi { f in
            let derived = await unifiError {
                _ = try await f.client.setEnabled(kind: .acl, site: f.site, id: F.derivedRuleID, enabled: false)
            }
            #expect(derived?.code == .readOnly)
            #expect(derived?.message.contains("DERIVED") == true)
            let system = await unifiError {
                _ = try await f.client.setEnabled(kind: .firewallPolicy, site: f.site, id: F.systemPolicyID, enabled: false)
            }
            #expect(system?.code == .readOnly)
            #expect(f.simulator.requestCount(method: "PUT") == 0)
            #expect(f.simulator.requestCount(method: "GET") == 2)
            #expect(f.simulator.rule(.aclRules, id: F.derivedRuleID)?["enabled"] == true)
        }
    }

    @Test func whatTheControllerSaysAfterThePutIsReturned() async throws {
        try await withUniFi { f in
            f.simulator.rename(.aclRules, id: F.downtimeEmmaID, to: "downtime-emma (renamed)")
            let switched = try await f.client.setEnabled(kind: .acl, site: f.site, id: F.downtimeEmmaID, enabled: false)
            #expect(switched.name == "downtime-emma (renamed)")
        }
    }
}
