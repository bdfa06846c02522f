import BridgeCore
import Testing

@Suite struct PollPaceTests {
    @Test func failedReadsAreRetriedSoonerThenLessOftenAndNeverMoreOftenThanTheInterval() {
        var pace = PollPace(interval: .seconds(60))
        #expect(pace.next(afterSuccess: true) == .seconds(60))
        #expect((1...6).map { _ in pace.next(afterSuccess: false) } == [5, 10, 20, 40, 60, 60].map(Duration.seconds))
        #expect(pace.next(afterSuccess: true) == .seconds(60))
        #expect(pace.next(afterSuccess: false) == .seconds(5), "a new run of failures starts over")

        var short = PollPace(interval: .seconds(2))
        #expect(short.next(afterSuccess: false) == .seconds(2), "never more often than the configured interval")

        var long = PollPace(interval: .seconds(3600))
        #expect((1...100).map { _ in long.next(afterSuccess: false) }.last == .seconds(3600))
    }
}
