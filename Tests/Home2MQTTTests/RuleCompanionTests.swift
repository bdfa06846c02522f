import BridgeCore
import BridgeTestSupport
import Testing
import UniFiSimulator
import UniFiTestSupport

private typealias F = UniFiSimulatorFixtures

/// `home2mqtt rules` and `home2mqtt rule NAME on|off [--for …]`: the real binary, a real broker,
/// a bridge wired to the UniFi simulator.
@Suite struct RuleCompanionTests {
    private func withOnlineBridge(_ body: @escaping (UniFiFixture, [String]) async throws -> Void) async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                let index = try await observer.latest("home/unifi/rules") { $0["downtime-leo"] != nil }
                // The rules' own topics follow the index: the companion reads them, so wait for each.
                for key in (index.objectValue ?? [:]).keys { _ = try await observer.latest("home/unifi/rule/\(key)") }
                try await body(fixture, ["--host", fixture.broker.host, "--port", String(fixture.broker.port)])
            }
        }
    }

    @Test func rulesListsEveryManagedRule() async throws {
        try await withOnlineBridge { _, broker in
            let result = try await companion(["rules"] + broker)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.contains("KEY") == true && lines.first?.contains("ENABLED") == true)
            #expect(lines.contains { $0.hasPrefix("downtime-leo") && $0.contains("Downtime Leo") && $0.contains("firewall_policy") })
            #expect(lines.count == 5, "\(result.stdout)")
            let json = try await companion(["rules", "--json"] + broker)
            #expect(JSONValue.parse(Array(json.stdout.utf8))?.arrayValue?.count == 4, "\(json.stdout)")
        }
    }

    @Test func ruleByNameForAWhile() async throws {
        try await withOnlineBridge { fixture, broker in
            let result = try await companion(["rule", "Downtime Leo", "off", "--for", "30m"] + broker)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Downtime Leo is off, back on at "), "\(result.stdout)")
            #expect(fixture.simulator.rule(.firewallPolicies, id: F.downtimeLeoID)?["enabled"] == false)
        }
    }

    @Test func anUnknownOrReadOnlyRuleIsItsOwnExitStatusAndNothingIsWritten() async throws {
        try await withOnlineBridge { fixture, broker in
            let unknown = try await companion(["rule", "downtime-nobody", "on"] + broker)
            #expect(unknown.status == 4)
            #expect(unknown.stderr.contains("no managed rule is called 'downtime-nobody'"), "\(unknown.stderr)")
            let derived = try await companion(["rule", "downtime-guest-derived", "off"] + broker)
            #expect(derived.status == 6)
            #expect(derived.stderr.contains("DERIVED"), "\(derived.stderr)")
            #expect(try await companion(["rule", "downtime-emma", "off", "--for", "soon"] + broker).status == 64)
            #expect(fixture.simulator.requestCount(method: "PUT") == 0)
        }
    }
}
