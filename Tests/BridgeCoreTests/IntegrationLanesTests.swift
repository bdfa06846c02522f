@testable import BridgeCore
#if canImport(Glibc)
import Glibc
#endif
import MQTT
import Synchronization
import Testing

/// An integration's commands and its own actions in one line per lane, as the queue and
/// `IntegrationContext.inTurn` use it.
@Suite struct IntegrationLanesTests {
    private static func command(_ name: String, lanes: Set<String>) -> QueuedCommand {
        QueuedCommand(
            transaction: .string(name), prepared: PreparedCommand(lanes: lanes, timeLimit: nil) { _ in .success(nil) },
            message: MQTTMessage(topic: name, payload: [], qos: .atLeastOnce, retain: false), expiresAt: nil,
            arrival: CommandArrival(sender: .mqtt, at: nil))
    }

    /// The commands `work` hands over, by name, and their tickets.
    private struct Started {
        var iterator: AsyncStream<IntegrationLanes.Work>.Iterator

        mutating func next() async -> (IntegrationLanes.Ticket, String)? {
            guard case .start(let ticket, let command)? = await iterator.next() else { return nil }
            return (ticket, command.transaction?.stringValue ?? "")
        }
    }

    private final class Names: Sendable {
        private let names = Mutex<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Admits `name` as a command that entered.
    private static func admit(_ lanes: IntegrationLanes, _ name: String, _ names: Set<String>) -> CommandLanes<IntegrationLanes.Waiter>.Admission {
        #expect(lanes.enter() == nil)
        return lanes.admit(command(name, lanes: names))
    }

    /// A trip comes while a command on its outlet runs and another waits: it runs after the first
    /// has answered, and the second starts only once the trip has ended.
    @Test func anActionWaitsForTheRunningCommandAndGoesBeforeTheWaitingOne() async throws {
        let lanes = IntegrationLanes()
        var started = Started(iterator: lanes.work.makeAsyncIterator())
        let order = Names()
        #expect(Self.admit(lanes, "first", ["heater"]) != .refused)
        #expect(Self.admit(lanes, "second", ["heater"]) == .queued)
        let (first, name) = try #require(await started.next())
        #expect(name == "first")
        let lining = Latch()
        let trip = Task {
            lining.open()
            await lanes.inTurn(of: ["heater"]) { () async in order.append("trip") }
        }
        await lining.wait()
        // The trip waits for the first command however long that runs (and is in line by then:
        // `inTurn` lines up before its first suspension).
        try await Task.sleep(for: .milliseconds(50))
        #expect(order.all.isEmpty)
        lanes.finish(first) { order.append("first answered") }
        let (second, secondName) = try #require(await started.next())
        #expect(secondName == "second")
        #expect(order.all == ["first answered", "trip"], "the second command started before the trip ended")
        lanes.finish(second) {}
        await trip.value
    }

    /// A command's own work that asks for a turn it has runs at once; a lane it lacks is waited for.
    @Test func aCommandHasTheTurnsOfItsLanes() async throws {
        let lanes = IntegrationLanes()
        var started = Started(iterator: lanes.work.makeAsyncIterator())
        #expect(Self.admit(lanes, "feed", ["feed", "pump"]) != .refused)
        #expect(Self.admit(lanes, "heater", ["heater"]) != .refused)
        let (feed, _) = try #require(await started.next())
        let (heater, _) = try #require(await started.next())
        let ran = Names()
        await lanes.running(Self.command("feed", lanes: ["feed", "pump"])) {
            await lanes.inTurn(of: ["pump"]) { () async in ran.append("pump") }
            let other = Task { await lanes.inTurn(of: ["heater"]) { () async in ran.append("heater") } }
            try? await Task.sleep(for: .milliseconds(50))
            #expect(ran.all == ["pump"], "the heater's lane is the heater command's")
            lanes.finish(heater) {}
            await other.value
        }
        #expect(ran.all == ["pump", "heater"])
        lanes.finish(feed) {}
    }

    /// Closed, the lanes refuse what enters, and `work` ends once the command still running has
    /// been answered (the bridge's `offline` goes out after every answer).
    @Test func workEndsOnceEveryCommandIsAnswered() async throws {
        let lanes = IntegrationLanes()
        let answered = Mutex(false)
        let (tickets, ticketsContinuation) = AsyncStream<IntegrationLanes.Ticket>.makeStream()
        let reader = Task {
            for await item in lanes.work {
                if case .start(let ticket, _) = item { ticketsContinuation.yield(ticket) }
            }
            return answered.withLock { $0 }
        }
        #expect(Self.admit(lanes, "running", ["a"]) != .refused)
        var started = tickets.makeAsyncIterator()
        let ticket = try #require(await started.next())
        lanes.close(refusing: CommandQueue.shuttingDown)
        #expect(lanes.enter() == CommandQueue.shuttingDown)
        // Time for a `work` that ended at the close, or ends before the answer is out, to show it.
        try await Task.sleep(for: .milliseconds(50))
        lanes.finish(ticket) {
            usleep(50_000)
            answered.withLock { $0 = true }
        }
        #expect(await reader.value, "work ended before the running command was answered")
    }
}
