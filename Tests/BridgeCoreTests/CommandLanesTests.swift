@testable import BridgeCore
import Testing

@Suite struct CommandLanesTests {
    @Test func sameLaneWaitsInOrderOtherLanesStartAtOnce() {
        var lanes = CommandLanes<String>(capacity: 10)
        #expect(lanes.admit("a1", lane: "a") == .start)
        #expect(lanes.admit("b1", lane: "b") == .start)
        #expect(lanes.admit("a2", lane: "a") == .queued)
        #expect(lanes.admit("a3", lane: "a") == .queued)
        #expect(lanes.finished(lane: "a") == "a2")
        #expect(lanes.finished(lane: "a") == "a3")
        #expect(lanes.finished(lane: "a") == nil)
        #expect(lanes.waiting["a"] == nil)
        #expect(lanes.admit("a4", lane: "a") == .start)
        #expect(lanes.count == 2)
    }

    @Test func refusesBeyondCapacityCountingRunningAndWaiting() {
        var lanes = CommandLanes<Int>(capacity: 3)
        #expect(lanes.admit(1, lane: "x") == .start)
        #expect(lanes.admit(2, lane: "y") == .start)
        #expect(lanes.admit(3, lane: "x") == .queued)
        #expect(lanes.admit(4, lane: "z") == .refused)
        #expect(lanes.finished(lane: "y") == nil)
        #expect(lanes.admit(5, lane: "z") == .start)
    }
}
