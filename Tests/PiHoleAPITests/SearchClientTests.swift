import Foundation
import Testing

@testable import PiHoleAPI
@testable import PiHoleSimulator

@Suite("PiHoleClient search and clients against the simulator")
struct SearchClientTests {
    @Test func findsExactAndRegexEntriesAndGravityRowsWithTheirGroups() async throws {
        try await withFixture { f in
            f.simulator.addGroup(name: "Kids")
            f.simulator.addDomain("ads.example", list: "deny", groups: ["Default", "Kids"])
            f.simulator.addDomain(#"^ads\."#, list: "allow", kind: "regex", enabled: false)
            f.simulator.addDomain(#"\.example$"#, list: "deny", kind: "regex")
            f.simulator.addList(address: "https://a.example/hosts", domains: ["ads.example", "||example^", "other.example"], groups: ["Kids"])
            f.simulator.addList(address: "https://b.example/allow", type: "allow", domains: ["@@||ads.example^"])

            let found = try await f.client.search("ads.example", partial: false, limit: 20)
            #expect(found.entries.map(\.domain) == ["ads.example", #"\.example$"#], "a disabled regex is not matched")
            #expect(found.entries[0] == .init(id: 1, domain: "ads.example", list: .deny, kind: .exact, enabled: true, groupIDs: [0, 1]))
            #expect(found.lists.map(\.domain) == ["ads.example", "||example^", "@@||ads.example^"])
            #expect(found.lists.map(\.type) == [.block, .block, .allow])
            #expect(found.lists[0].groupIDs == [1])
            #expect(found.total == 5)

            let limited = try await f.client.search("ads.example", partial: false, limit: 1)
            #expect(limited.lists.map(\.domain) == ["ads.example", "@@||ads.example^"], "N limits each kind")
            #expect(limited.total == 5)

            let partial = try await f.client.search("ads", partial: true, limit: 20)
            #expect(partial.entries.map(\.domain) == ["ads.example", #"^ads\."#], "the disabled regex's text contains the piece")
            #expect(partial.lists.map(\.domain) == ["ads.example", "@@||ads.example^"])
        }
    }

    /// The simulator refuses what FTL's `api_search` refuses.
    @Test func refusesAnEmptyTermTooManyResultsAndAnUnconvertibleName() async throws {
        try await withFixture { f in
            #expect(await piHoleError { _ = try await f.client.search("", partial: false, limit: 20) }?.code == .badRequest)
            #expect(await piHoleError { _ = try await f.client.search("ads.example", partial: false, limit: 10_001) }?.code == .badRequest)
            #expect(await piHoleError { _ = try await f.client.search("bücher.example", partial: false, limit: 20) }?.code == .badRequest)
            _ = try await f.client.search("ads.example", partial: false, limit: 10_000)
        }
    }

    @Test func listsTheConfiguredClientsWithTheirGroups() async throws {
        try await withFixture { f in
            let none = try await f.client.clients()
            #expect(none == [])
            f.simulator.addGroup(name: "Kids")
            f.simulator.addClient("192.168.1.20", groups: ["Kids"])
            f.simulator.addClient("AA:BB:CC:DD:EE:FF", groups: ["Default", "Kids"])
            let two = try await f.client.clients()
            #expect(two == [
                PiHoleClientEntry(client: "192.168.1.20", comment: nil, groups: [1], name: nil),
                PiHoleClientEntry(client: "AA:BB:CC:DD:EE:FF", comment: nil, groups: [0, 1], name: nil),
            ])
        }
    }
}
