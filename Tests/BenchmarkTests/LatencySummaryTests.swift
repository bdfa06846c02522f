import BenchmarkReport
import Testing

@Suite struct LatencySummaryTests {
    @Test func percentilesOfOneToAHundredAreTheirRanks() throws {
        let summary = try #require(LatencySummary(milliseconds: (1...100).reversed().map(Double.init)))
        #expect(summary == LatencySummary(count: 100, p50: 50, p90: 90, p99: 99, max: 100))
    }

    @Test func nearestRankRoundsUp() throws {
        // Ten samples: p50 is the 5th, p90 the 9th, p99 the 10th.
        let summary = try #require(LatencySummary(milliseconds: [10, 1, 9, 2, 8, 3, 7, 4, 6, 5]))
        #expect(summary == LatencySummary(count: 10, p50: 5, p90: 9, p99: 10, max: 10))
    }

    @Test func oneSampleIsEveryPercentile() throws {
        let summary = try #require(LatencySummary(milliseconds: [0.25]))
        #expect(summary == LatencySummary(count: 1, p50: 0.25, p90: 0.25, p99: 0.25, max: 0.25))
    }

    @Test func noSamplesIsNoSummary() {
        #expect(LatencySummary(milliseconds: []) == nil)
    }

    @Test func durationsAreMilliseconds() throws {
        let summary = try #require(LatencySummary([.microseconds(1_500), .seconds(2), .nanoseconds(250_000)]))
        #expect(summary.p50 == 1.5)
        #expect(summary.max == 2_000)
        #expect(Duration.microseconds(250).milliseconds == 0.25)
    }
}
