import Testing
@testable import UniFiIntegration

@Suite struct PublishScopeTests {
    private let emma = PublishScope.Rule(controller: "home", key: "downtime-emma", id: "1")
    private let leo = PublishScope.Rule(controller: "home", key: "downtime-leo", id: "2")

    @Test func rulesSetBeforeAPublishAllGoInIt() {
        #expect(PublishScope.rule(emma).adding(.rule(leo)).rules == [emma, leo])
        #expect(PublishScope.rule(emma).adding(.rule(emma)).rules == [emma])
        #expect(PublishScope.nothing.adding(.rule(leo)).rules == [leo])
    }

    /// A poll or a failure between two commands: the rules alone would miss what it changed.
    @Test func theWholeStateAbsorbsAnyRule() {
        #expect(PublishScope.rule(emma).adding(.wholeState) == .wholeState)
        #expect(PublishScope.wholeState.adding(.rule(leo)) == .wholeState)
    }
}
