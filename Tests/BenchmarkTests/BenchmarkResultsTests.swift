import BenchmarkReport
import Testing

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
