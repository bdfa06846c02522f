import BenchmarkReport
import Testing

@Suite struct BenchmarkResultsTests {
    static func results(
        pause p50: Double, broker: Double, http: Double, relay: Double? = nil, backToBack: (broker: Double, http: Double)? = nil,
        throughput: [BenchmarkResults.Throughput] = [level(8, perSecond: 200)], process: ProcessFootprint? = nil
    ) -> BenchmarkResults {
        BenchmarkResults(
            build: "debug", commandsPerKind: 1,
            commandLatency: [.init(kind: BenchmarkResults.piHolePauseKind, latency: LatencySummary(milliseconds: [p50]), failures: 0)],
            floor: .init(
                alternated: parts(broker, http), backToBack: backToBack.map { parts($0.broker, $0.http) } ?? .init(),
                relay: relay.flatMap { LatencySummary(milliseconds: [$0]) }),
            throughput: throughput,
            footprint: .init(residentKiBAfterStart: 2048, residentKiBAfterCommands: nil, strippedBinaryBytes: nil), process: process)
    }

    static func parts(_ broker: Double, _ http: Double) -> BenchmarkResults.FloorParts {
        .init(brokerRoundTrip: LatencySummary(milliseconds: [broker]), httpRequest: LatencySummary(milliseconds: [http]))
    }

    /// 100 commands answered (one of them with an error) at `perSecond`.
    static func level(_ inFlight: Int, perSecond: Double) -> BenchmarkResults.Throughput {
        .init(objects: 20, inFlight: inFlight, sent: 100, answeredOK: 99, answeredError: 1, lost: 0, seconds: 100 / perSecond, latency: nil)
    }

    @Test func theFloorIsTwoBrokerPassesAndOneHTTPCall() throws {
        let results = Self.results(pause: 1.5, broker: 0.25, http: 0.5)
        #expect(results.floor.p50 == 1.0)
        #expect(results.addedLatencyP50 == 0.5)
        #expect(results.bridgeOverFloorP50 == 1.5)
    }

    @Test func theFloorIsItsPartsAlternatedAndTheirFiguresBackToBackStandBeside() {
        let results = Self.results(pause: 1.5, broker: 0.25, http: 0.5, backToBack: (broker: 0.125, http: 0.25))
        #expect(results.floor.p50 == 1.0)
        #expect(results.addedLatencyP50 == 0.5)
        #expect(results.bridgeOverFloorP50 == 1.5)
        #expect(results.addedOverBackToBackFloorP50 == 1.0)
        #expect(results.bridgeOverBackToBackFloorP50 == 3.0)
        let table = ReportTable.render(results)
        #expect(table.contains("floor: broker round trip             1    0.250"))
        #expect(table.contains("floor p50 (2 × broker + HTTP, alternated as in a command): 1.000 ms"))
        #expect(table.contains("  round trip, back to back           1    0.125"))
        #expect(table.contains("  HTTP POST, back to back            1    0.250"))
        #expect(table.contains("bridge adds at p50: 0.500 ms; bridge / floor: 1.50"))
        #expect(table.contains("  over the floor back to back: 1.000 ms; bridge / floor: 3.00"))
        let line = ReportJSONLine.render(results, commit: nil)
        #expect(line.contains(#""floor_ms":{"back_to_back":{"broker_round_trip":{"max":0.125,"#))
        #expect(line.contains(#""p50":0.5},"broker_round_trip":{"max":0.25,"#))
        #expect(line.contains(#""added_latency_p50_ms":0.5,"added_over_back_to_back_floor_p50_ms":1,"#))
        #expect(line.contains(#""bridge_over_back_to_back_floor_p50":3,"#))
    }

    @Test func theBareRelaySplitsWhatTheBridgeAddsIntoItsPartsAndItsOwnCode() {
        let results = Self.results(pause: 1.5, broker: 0.25, http: 0.5, relay: 1.375)
        #expect(results.relayAddedP50 == 0.375)
        #expect(results.addedOverRelayP50 == 0.125)
        #expect(results.addedLatencyP50 == 0.5)
        let table = ReportTable.render(results)
        #expect(table.contains("relay: the bridge's parts only       1    1.375"))
        #expect(table.contains("the parts (relay - floor): 0.375 ms; the bridge's own code (pause - relay): 0.125 ms"))
        let line = ReportJSONLine.render(results, commit: nil)
        #expect(line.contains(#""relay":{"max":1.375,"n":1,"p50":1.375"#))
        #expect(line.contains(#""relay_added_p50_ms":0.375"#))
        #expect(line.contains(#""added_over_relay_p50_ms":0.125"#))
    }

    @Test func withoutARelayThereIsNoSplit() {
        let results = Self.results(pause: 1.5, broker: 0.25, http: 0.5)
        #expect(results.relayAddedP50 == nil)
        #expect(results.addedOverRelayP50 == nil)
        #expect(!ReportTable.render(results).contains("the parts"))
    }

    @Test func throughputCountsEveryAnswer() {
        #expect(Self.results(pause: 1, broker: 1, http: 1).throughput[0].commandsPerSecond == 200)
    }

    @Test func latencyClimbsWhereMoreInFlightStopsAnsweringMore() {
        let levels = [Self.level(1, perSecond: 300), Self.level(8, perSecond: 1_000), Self.level(64, perSecond: 1_100), Self.level(256, perSecond: 1_150)]
        #expect(Self.results(pause: 1, broker: 1, http: 1, throughput: levels).saturatedInFlight == 64)
        #expect(Self.results(pause: 1, broker: 1, http: 1, throughput: Array(levels.prefix(2))).saturatedInFlight == nil)
    }

    @Test func theJSONLineIsOneLineWithTheFigures() {
        let line = ReportJSONLine.render(Self.results(pause: 1.5, broker: 0.25, http: 0.5), commit: "abc")
        #expect(!line.contains("\n"))
        #expect(line.contains(#""added_latency_p50_ms":0.5"#))
        #expect(line.contains(#""after_commands":null"#))
        #expect(line.contains(#""commit":"abc""#))
    }

    @Test func theStagesOfACommandAreRowsAndKeysOfTheirOwn() {
        let stages = BenchmarkResults.CommandLatency(
            kind: BenchmarkResults.piHolePauseKind, latency: LatencySummary(milliseconds: [0.5]), failures: 0,
            upstreamCall: LatencySummary(milliseconds: [0.25]), state: LatencySummary(milliseconds: [0.75]))
        let results = BenchmarkResults(
            build: "debug", commandsPerKind: 1, commandLatency: [stages],
            floor: .init(alternated: .init()), throughput: [],
            footprint: .init(residentKiBAfterStart: nil, residentKiBAfterCommands: nil, strippedBinaryBytes: nil))
        let table = ReportTable.render(results)
        #expect(table.contains("  → upstream call received           1    0.250"))
        #expect(table.contains("  → new state arrived                1    0.750"))
        let line = ReportJSONLine.render(results, commit: nil)
        #expect(line.contains(#""state":{"max":0.75,"n":1,"p50":0.75"#))
        #expect(line.contains(#""upstream_call":{"max":0.25,"n":1,"p50":0.25"#))
    }

    @Test func numbersAreFixedPoint() {
        #expect(ReportTable.format(1.23456) == "1.235")
        #expect(ReportTable.format(0.0004) == "0.000")
        #expect(ReportTable.format(-0.5, digits: 1) == "-0.5")
        #expect(ReportTable.format(812.6, digits: 0) == "813")
        #expect(ReportTable.format(2.05, digits: 2) == "2.05")
    }
}
