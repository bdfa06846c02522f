@testable import BridgeCore
import Testing

@Suite struct CommandLanesTests {
    /// Starts `item` and returns its ticket; fails the test if it has to wait.
    private func started(_ lanes: inout CommandLanes<String>, _ item: String, _ names: Set<String>) -> CommandLanes<String>.Ticket? {
        guard case .start(let ticket) = lanes.admit(item, lanes: names) else {
            Issue.record("\(item) did not start")
            return nil
        }
        return ticket
    }

    @Test func sameLaneWaitsInOrderOtherLanesStartAtOnce() throws {
        var lanes = CommandLanes<String>(capacity: 10)
        let a1 = try #require(started(&lanes, "a1", ["a"]))
        _ = try #require(started(&lanes, "b1", ["b"]))
        #expect(lanes.admit("a2", lanes: ["a"]) == .queued)
        #expect(lanes.admit("a3", lanes: ["a"]) == .queued)
        let next = lanes.finished(a1)
        #expect(next.map(\.1) == ["a2"])
        #expect(lanes.finished(next[0].0).map(\.1) == ["a3"])
        #expect(lanes.count == 2)
    }

    @Test func emptyLanesAreForgotten() throws {
        var lanes = CommandLanes<String>(capacity: 10)
        let a1 = try #require(started(&lanes, "a1", ["a"]))
        #expect(lanes.finished(a1).isEmpty)
        #expect(lanes.lanes.isEmpty)
        _ = try #require(started(&lanes, "a2", ["a"]))
    }

    @Test func refusesBeyondCapacityCountingRunningAndWaiting() throws {
        var lanes = CommandLanes<String>(capacity: 3)
        _ = try #require(started(&lanes, "1", ["x"]))
        let two = try #require(started(&lanes, "2", ["y"]))
        #expect(lanes.admit("3", lanes: ["x"]) == .queued)
        #expect(lanes.admit("4", lanes: ["z"]) == .refused)
        #expect(lanes.finished(two).isEmpty)
        _ = try #require(started(&lanes, "5", ["z"]))
    }

    /// A command for every Pi-hole keeps its place in line with each one's own commands: it waits
    /// for those before it, and those after it wait for it, while other lanes run freely.
    @Test func aCommandInSeveralLanesWaitsForItsTurnInEach() throws {
        var lanes = CommandLanes<String>(capacity: 10)
        let a1 = try #require(started(&lanes, "a1", ["a"]))
        let b1 = try #require(started(&lanes, "b1", ["b"]))
        #expect(lanes.admit("all", lanes: ["a", "b"]) == .queued)
        #expect(lanes.admit("a2", lanes: ["a"]) == .queued)
        _ = try #require(started(&lanes, "c1", ["c"]))
        #expect(lanes.finished(a1).isEmpty, "b1 still runs, so 'all' waits")
        let afterB = lanes.finished(b1)
        #expect(afterB.map(\.1) == ["all"])
        #expect(lanes.finished(afterB[0].0).map(\.1) == ["a2"])
    }

    @Test func oneEndCanStartSeveralCommands() throws {
        var lanes = CommandLanes<String>(capacity: 10)
        let all = try #require(started(&lanes, "all", ["a", "b"]))
        #expect(lanes.admit("a1", lanes: ["a"]) == .queued)
        #expect(lanes.admit("b1", lanes: ["b"]) == .queued)
        #expect(lanes.finished(all).map(\.1) == ["a1", "b1"])
    }

    @Test func noLaneIsTheCommonLane() throws {
        var lanes = CommandLanes<String>(capacity: 10)
        _ = try #require(started(&lanes, "x", []))
        #expect(lanes.admit("y", lanes: [""]) == .queued)
    }

    /// The integration's own actions (an interlock's trip, a restore) are never refused, and go
    /// after what runs in their lane and before every command still waiting there, in the order
    /// they came.
    @Test func actionsGoAheadOfTheWaitingCommandsAndAreNeverRefused() throws {
        var lanes = CommandLanes<String>(capacity: 2)
        let command = try #require(started(&lanes, "command", ["heater"]))
        #expect(lanes.admit("next command", lanes: ["heater"]) == .queued)
        #expect(lanes.admit("beyond capacity", lanes: ["pump"]) == .refused)
        #expect(lanes.admit("trip", lanes: ["heater"], ahead: true) == .queued)
        #expect(lanes.admit("restore", lanes: ["heater"], ahead: true) == .queued)
        let trip = lanes.finished(command)
        #expect(trip.map(\.1) == ["trip"])
        let restore = lanes.finished(trip[0].0)
        #expect(restore.map(\.1) == ["restore"])
        #expect(lanes.finished(restore[0].0).map(\.1) == ["next command"])
    }

    /// A command first in one lane but waiting for another holds nothing: an action in the first
    /// lane starts at once, and the command then waits for it too.
    @Test func anActionPassesACommandThatWaitsForAnotherLane() throws {
        var lanes = CommandLanes<String>(capacity: 10)
        let pump = try #require(started(&lanes, "pump", ["pump"]))
        #expect(lanes.admit("feed", lanes: ["heater", "pump"]) == .queued)
        let trip = try #require({ if case .start(let ticket) = lanes.admit("trip", lanes: ["heater"], ahead: true) { ticket } else { nil } }())
        #expect(lanes.finished(pump).isEmpty, "the trip has the heater's lane")
        #expect(lanes.finished(trip).map(\.1) == ["feed"])
    }
}
