import BenchmarkReport
import Testing

@Suite struct StageTimingTests {
    private let zero = ContinuousClock.now
    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { zero + .milliseconds(milliseconds) }

    @Test func eachCommandTakesTheFirstEventThatBelongsToIt() {
        let events = [(at: at(14), event: "b"), (at: at(12), event: "poll"), (at: at(13), event: "b"), (at: at(3), event: "a")]
        let delays = StageTiming.delays(sent: [at(0), at(10)], events: events, window: 1) { command, event in
            event == ["a", "b"][command]
        }
        #expect(delays == [.milliseconds(3), .milliseconds(3)])
    }

    @Test func anEventBeforeTheCommandOrAfterItsWindowIsNotItsOwn() {
        // "on" at 25 is the third command's; the first, whose "on" never came, has no sample.
        let events = [(at: at(-1), event: "on"), (at: at(15), event: "off"), (at: at(25), event: "on")]
        let delays = StageTiming.delays(sent: [at(0), at(10), at(20)], events: events, window: 2) { command, event in
            event == (command.isMultiple(of: 2) ? "on" : "off")
        }
        #expect(delays == [.milliseconds(5), .milliseconds(5)])
    }

    @Test func aStateMayComeAfterTheNextCommandWasSent() {
        let events = [(at: at(12), event: "first"), (at: at(14), event: "second")]
        let delays = StageTiming.delays(sent: [at(0), at(10)], events: events, window: 2) { command, event in
            event == ["first", "second"][command]
        }
        #expect(delays == [.milliseconds(12), .milliseconds(4)])
    }
}
