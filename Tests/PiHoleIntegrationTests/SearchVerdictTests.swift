import BridgeCore
import PiHoleAPI
@testable import PiHoleIntegration
import Testing

/// The verdict of one Pi-hole's search, as a pure value: FTL's order, and what applies to whom.
@Suite struct SearchVerdictTests {
    static let groups = [
        PiHoleGroup(id: 0, name: "Default", comment: nil, enabled: true),
        PiHoleGroup(id: 1, name: "Kids", comment: nil, enabled: true),
        PiHoleGroup(id: 2, name: "Off", comment: nil, enabled: false),
    ]

    static func entry(_ id: Int, _ list: PiHoleDomainList, _ kind: PiHoleDomainKind = .exact, groups: [Int] = [0], enabled: Bool = true) -> PiHoleSearchResult.Entry {
        .init(id: id, domain: "ads.example", list: list, kind: kind, enabled: enabled, groupIDs: groups)
    }

    static func list(_ id: Int, _ type: PiHoleListType, groups: [Int] = [0]) -> PiHoleSearchResult.ListMatch {
        .init(listID: id, address: "https://l\(id).example", type: type, domain: "ads.example", enabled: true, groupIDs: groups)
    }

    static func verdict(_ entries: [PiHoleSearchResult.Entry] = [], _ lists: [PiHoleSearchResult.ListMatch] = [], for clientGroups: [Int] = [0], partial: Bool = false) -> SearchVerdict {
        SearchVerdict(
            found: PiHoleSearchResult(entries: entries, lists: lists, total: entries.count + lists.count), groups: groups,
            clientGroupIDs: clientGroups, client: (true, true), partial: partial)
    }

    @Test func followsFTLsOrder() {
        #expect(Self.verdict([Self.entry(1, .deny), Self.entry(2, .allow, .regex)], [Self.list(1, .block)]).decision?.reason == .allowEntry)
        #expect(Self.verdict([Self.entry(1, .deny)], [Self.list(1, .block), Self.list(2, .allow)]).decision?.reason == .denyEntry)
        let exempt = Self.verdict([], [Self.list(1, .block), Self.list(2, .allow)]).decision
        #expect(exempt?.blocked == false)
        #expect(exempt?.reason == .allowList)
        let listed = Self.verdict([], [Self.list(1, .block)]).decision
        #expect(listed?.blocked == true)
        #expect(listed?.lists.map(\.listID) == [1])
        #expect(Self.verdict().decision?.reason == .noMatch)
    }

    @Test func aMatchAppliesWhenEnabledAndInAnEnabledGroupOfTheClient() {
        #expect(Self.verdict([Self.entry(1, .deny, groups: [1])]).decision?.reason == .noneApplies)
        #expect(Self.verdict([Self.entry(1, .deny, groups: [1])], for: [1]).decision?.blocked == true)
        #expect(Self.verdict([Self.entry(1, .deny, groups: [2])], for: [2]).decision?.reason == .noneApplies, "its group is disabled")
        #expect(Self.verdict([Self.entry(1, .deny, enabled: false)]).decision?.reason == .noneApplies)
        #expect(Self.verdict([Self.entry(1, .deny, groups: [])]).decision?.reason == .noneApplies, "in no group: for no client")
        // An allow entry the client is not in does not let it through.
        #expect(Self.verdict([Self.entry(1, .deny), Self.entry(2, .allow, groups: [1])]).decision?.blocked == true)
    }

    /// Why a match does not apply: its own switch, the client's groups that hold it, or none.
    @Test func aMatchThatDoesNotApplySaysWhy() {
        let verdict = Self.verdict(for: [0, 2])
        #expect(verdict.notApplying(enabled: true, groupIDs: [0]) == nil)
        #expect(verdict.notApplying(enabled: false, groupIDs: [0]) == "disabled")
        #expect(verdict.notApplying(enabled: true, groupIDs: [2]) == "group_disabled")
        #expect(verdict.notApplying(enabled: true, groupIDs: [1, 2]) == "group_disabled", "Kids is on, but not the client's")
        #expect(verdict.notApplying(enabled: true, groupIDs: [1]) == "not_in_client_groups")
        #expect(verdict.notApplying(enabled: true, groupIDs: []) == "not_in_client_groups")
    }

    @Test func aPartialSearchHasNoVerdictAndListsARegexOnce() {
        let verdict = Self.verdict([Self.entry(1, .deny, .regex), Self.entry(1, .deny, .regex)], partial: true)
        #expect(verdict.decision == nil)
        #expect(verdict.entries.count == 1)
        #expect(verdict.payload["blocked"] == .null)
    }
}
