import Foundation
import JSONDocument
import Testing
import UniFiAPI
import UniFiSimulator

@Suite("UniFiClient reading, over HTTPS with a pinned certificate")
struct ClientReadingTests {
    @Test func infoAndKeyOnlyInHeader() async throws {
        try await withUniFi { f in
            let info = try await f.client.info()
            #expect(info.applicationVersion == "10.5.66")
            let request = try #require(f.simulator.requests.last)
            #expect(request.path == "/proxy/network/integration/v1/info")
            #expect(request.header("x-api-key") == "sim-api-key")
            #expect(request.query == nil)
        }
    }

    @Test func theOnlySiteIsChosenWithoutAName() async throws {
        try await withUniFi { f in
            let onlySite = try await f.client.resolveSite(nil)
            #expect(onlySite.id == UniFiSimulator.defaultSiteID)
        }
    }

    @Test func severalSitesNeedANameAndTheErrorListsThem() async throws {
        let officeID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
        try await withUniFi(prepare: { $0.addSite(name: "Office", internalReference: "x7k2office", id: officeID) }) { f in
            let error = await unifiError { _ = try await f.client.resolveSite(nil) }
            #expect(error?.code == .siteSelection)
            #expect(error?.message.contains("'Default'") == true && error?.message.contains("'Office'") == true)
            let byName = try await f.client.resolveSite("Office")
            #expect(byName.id == officeID)
            let byReference = try await f.client.resolveSite("x7k2office")
            #expect(byReference.id == officeID)
            let byUUID = try await f.client.resolveSite(officeID.uppercased())
            #expect(byUUID.id == officeID)
            let defaultByReference = try await f.client.resolveSite("default")
            #expect(defaultByReference.id == UniFiSimulator.defaultSiteID)
            #expect(await unifiError { _ = try await f.client.resolveSite("Garage") }?.code == .siteSelection)
        }
    }

    @Test func fourHundredFiftyRulesOverThreePages() async throws {
        try await withUniFi(prepare: { $0.addGeneratedACLRules(count: 450) }) { f in
            let rules = try await f.client.aclRules(site: f.site)
            #expect(rules.count == 450)
            #expect(Set(rules.map(\.id)).count == 450)
            #expect(rules.last?.name == "generated-450")
            let pages = f.simulator.requests.filter { $0.path.hasSuffix("/acl-rules") }
            #expect(pages.map(\.query) == ["offset=0&limit=200", "offset=200&limit=200", "offset=400&limit=200"])
        }
    }

    /// A rule made on the console while the pages are read sorts first and shifts every later
    /// page: the rule at the end of one page comes again at the start of the next. Kept once.
    @Test func aListThatChangesBetweenPagesIsReadWithEveryItemOnce() async throws {
        try await withUniFi(prepare: { $0.addGeneratedACLRules(count: 480) }) { f in
            f.simulator.inject(.listChangesBetweenPages)
            let rules = try await f.client.aclRules(site: f.site)
            #expect(rules.count == 480)
            #expect(Set(rules.map(\.id)).count == 480)
            #expect(rules.map(\.name) == (1...480).map { "generated-\($0)" })
        }
    }

    /// A console that answers the first page whatever is asked is not read forever.
    @Test func aConsoleWhoseOffsetNeverAdvancesIsAnErrorNotALoop() async throws {
        try await withUniFi(prepare: { $0.addGeneratedACLRules(count: 450) }) { f in
            f.simulator.inject(.offsetStuckAtZero)
            let error = await unifiError { _ = try await f.client.aclRules(site: f.site) }
            #expect(error?.code == .unexpectedResponse)
            #expect(error?.message == "asked for acl rules from offset 200, the console answered offset 0", "\(String(describing: error))")
            #expect(f.simulator.requests.filter { $0.path.hasSuffix("/acl-rules") }.count == 2)
        }
    }

    @Test func bothKindsAreDecoded() async throws {
        try await withUniFi { f in
            let acl = try await f.client.aclRules(site: f.site)
            #expect(acl.map(\.name) == ["downtime-emma", "Downtime tablet", "downtime guest (derived)"])
            #expect(acl.map(\.origin) == [.userDefined, .userDefined, .derived])
            let policies = try await f.client.firewallPolicies(site: f.site)
            #expect(policies.map(\.kind) == [.firewallPolicy, .firewallPolicy])
            #expect(policies.map(\.action) == ["BLOCK", "BLOCK"])
            #expect(policies.map(\.origin) == [.userDefined, .systemDefined])
        }
    }

    @Test func filterQuotingRoundTrip() async throws {
        let tricky = "Emma's downtime.v2*"
        try await withUniFi(prepare: { simulator in
            simulator.add(UniFiSimulatorFixtures.firewallPolicy(id: UUID().uuidString, name: tricky, index: 1), to: .firewallPolicies)
            // Would match if `.` and `*` were not escaped in the like pattern.
            simulator.add(
                UniFiSimulatorFixtures.firewallPolicy(id: UUID().uuidString, name: "Emma's downtimeXv2 and more", index: 2),
                to: .firewallPolicies)
        }) { f in
            let exact = try await f.client.firewallPolicies(site: f.site, filter: .eq("name", .string(tricky)))
            #expect(exact.map(\.name) == [tricky])
            let prefix = UniFiFilter.like("name", UniFiFilter.likeLiteral("Emma's downtime.v2") + "*")
            let prefixed = try await f.client.firewallPolicies(site: f.site, filter: prefix)
            #expect(prefixed.map(\.name) == [tricky])
            let query = try #require(f.simulator.requests.last?.query)
            #expect(query.contains("filter=name.like%28%27Emma%27%27s%20downtime%5C.v2%2A%27%29"))
        }
    }

    @Test func firewallPoliciesCannotBeFilteredOnEnabledAndNothingIsSent() async throws {
        try await withUniFi { f in
            let error = await unifiError {
                _ = try await f.client.firewallPolicies(site: f.site, filter: .eq("enabled", .bool(true)))
            }
            #expect(error?.code == .badRequest)
            #expect(error?.status == nil)
            #expect(f.simulator.requestCount(pathContaining: "firewall") == 0)
            // ACL rules can: the simulator answers it.
            let enabled = try await f.client.aclRules(site: f.site, filter: .eq("enabled", .bool(true)))
            #expect(enabled.map(\.name) == ["downtime-emma", "downtime guest (derived)"])
        }
    }
}
