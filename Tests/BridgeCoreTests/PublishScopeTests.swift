import Testing
@testable import BridgeCore

@Suite struct PublishScopeTests {
    @Test func partsAskedForBeforeAPublishAllGoInIt() {
        #expect(PublishScope.parts(["emma"]).adding(.parts(["leo"])).parts == ["emma", "leo"])
        #expect(PublishScope.parts(["emma"]).adding(.parts(["emma"])).parts == ["emma"])
        #expect(PublishScope.nothing.adding(.parts(["leo"])).parts == ["leo"])
    }

    /// A poll or a failure between two commands: the parts alone would miss what it changed.
    @Test func theWholeStateAbsorbsAnyPart() {
        #expect(PublishScope.parts(["emma"]).adding(.wholeState) == .wholeState)
        #expect(PublishScope<String>.wholeState.adding(.parts(["leo"])) == .wholeState)
    }

    /// Before the first publish nothing has gone out, and the hourly wake-up asks for nothing:
    /// both are the whole state. What was taken is not taken again.
    @Test func requestsAreTakenOnceAndNothingAskedIsTheWholeState() {
        let requests = PublishRequests<String>()
        requests.request(.parts(["alpha"]))
        #expect(requests.take() == nil)
        requests.request(.parts(["alpha"]))
        requests.request(.parts(["beta"]))
        #expect(requests.take() == ["alpha", "beta"])
        #expect(requests.take() == nil)
    }
}
