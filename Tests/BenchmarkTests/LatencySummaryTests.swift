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

@Suite struct BenchmarkResultsTests {
    static func results(pause p50: Double, broker: Double, http: Double) -> BenchmarkResults {
        BenchmarkResults(
            build: "debug", commandsPerKind: 1,
            commandLatency: [.init(kind: BenchmarkResults.piHolePauseKind, latency: LatencySummary(milliseconds: [p50]), failures: 0)],
            floor: .init(brokerRoundTrip: LatencySummary(milliseconds: [broker]), httpRequest: LatencySummary(milliseconds: [http])),
            throughput: [.init(inFlight: 8, sent: 100, answeredOK: 99, answeredError: 1, lost: 0, seconds: 0.5, latency: nil)],
            footprint: .init(residentKiBAfterStart: 2048, residentKiBAfterCommands: nil, strippedBinaryBytes: nil))
    }

    @Test func theFloorIsTwoBrokerPassesAndOneHTTPCall() throws {
        let results = Self.results(pause: 1.5, broker: 0.25, http: 0.5)
        #expect(results.floor.p50 == 1.0)
        #expect(results.addedLatencyP50 == 0.5)
        #expect(results.bridgeOverFloorP50 == 1.5)
    }

    @Test func throughputCountsEveryAnswer() {
        #expect(Self.results(pause: 1, broker: 1, http: 1).throughput[0].commandsPerSecond == 200)
    }

    @Test func theJSONLineIsOneLineWithTheFigures() {
        let line = ReportJSONLine.render(Self.results(pause: 1.5, broker: 0.25, http: 0.5), commit: "abc")
        #expect(!line.contains("\n"))
        #expect(line.contains(#""added_latency_p50_ms":0.5"#))
        #expect(line.contains(#""after_commands":null"#))
        #expect(line.contains(#""commit":"abc""#))
    }

    @Test func numbersAreFixedPoint() {
        #expect(ReportTable.format(1.23456) == "1.235")
        #expect(ReportTable.format(0.0004) == "0.000")
        #expect(ReportTable.format(-0.5, digits: 1) == "-0.5")
        #expect(ReportTable.format(812.6, digits: 0) == "813")
        #expect(ReportTable.format(2.05, digits: 2) == "2.05")
    }
}
