import BridgeCore
import Testing

@Suite struct ChangedStateTests {
    private typealias Messages = [(topic: String, message: StateMessage)]

    private func topics(_ messages: Messages) -> [String] { messages.map(\.topic) }

    @Test func onlyWhatChangedGoesOutAgain() {
        var state = ChangedState()
        let first: Messages = [("a", .json(["on": true])), ("b", .availability(true))]
        #expect(topics(state.changes(replacingAll: first)) == ["a", "b"])
        #expect(state.changes(replacingAll: first).isEmpty)
        let changed = state.changes(replacingAll: [("a", .json(["on": false])), ("b", .availability(true))])
        #expect(topics(changed) == ["a"])
        #expect(changed.first?.message == .json(["on": false]))
    }

    @Test func topicsLeftOutAreClearedOnceInOrder() {
        var state = ChangedState()
        _ = state.changes(replacingAll: [("c", .availability(true)), ("a", .availability(true)), ("b", .availability(true))])
        let after = state.changes(replacingAll: [("b", .availability(true))])
        #expect(after.map(\.topic) == ["a", "c"])
        #expect(after.allSatisfy { $0.message == .cleared })
        #expect(state.changes(replacingAll: [("b", .availability(true))]).isEmpty)
        // Back again: published as new.
        #expect(topics(state.changes(replacingAll: [("a", .availability(true)), ("b", .availability(true))])) == ["a"])
    }

    @Test func clearingIsAChangeOnlyWhereSomethingWasPublished() {
        var state = ChangedState()
        #expect(state.changes([("a", .cleared)]).isEmpty)
        _ = state.changes([("a", .json(1))])
        #expect(topics(state.changes([("a", .cleared)])) == ["a"])
        #expect(state.changes([("a", .cleared)]).isEmpty)
    }

    /// A topic published between two whole states (a command's answer) belongs to the state.
    @Test func aSinglePublishBetweenWholeStatesCounts() {
        var state = ChangedState()
        _ = state.changes(replacingAll: [("a", .json(1))])
        #expect(topics(state.changes([("b", .json(2))])) == ["b"])
        #expect(state.changes(replacingAll: [("a", .json(1)), ("b", .json(2))]).isEmpty)
        #expect(topics(state.changes(replacingAll: [("a", .json(1))])) == ["b"])
    }

    /// What some commands changed is published as it is; what it leaves out is not gone.
    @Test func aPartOfTheStateClearsNothing() {
        var state = ChangedState()
        _ = state.changes(StatePublication(messages: [("a", .json(1)), ("b", .json(2))], upstreamAnswered: true))
        #expect(topics(state.changes(.part([("a", .json(3))], upstreamAnswered: true))) == ["a"])
        #expect(state.changes(.part([("a", .json(3))], upstreamAnswered: true)).isEmpty)
        let whole = state.changes(StatePublication(messages: [("a", .json(3))], upstreamAnswered: true))
        #expect(whole.map(\.topic) == ["b"])
        #expect(whole.first?.message == .cleared)
    }
}
