import BenchmarkReport
import Testing

@Suite struct ProcessFootprintTests {
    static let idle = IdlePolling(seconds: 20, cpuSeconds: 0.5, upstreams: [
        .init(integration: "pihole", requests: 40, logins: 0, compressedInterval: 1, defaultInterval: 5),
        .init(integration: "unifi", requests: 8, logins: 1, compressedInterval: 5, defaultInterval: 30),
    ])

    static func footprint(resident kib: [Int]) -> ProcessFootprint {
        ProcessFootprint(
            binary: "home2mqtt", startToOnlineMs: 42, startToFirstStateMs: ["pihole": 60, "unifi": 80],
            resident: kib.enumerated().map { .init(commands: $0.offset * 1_000, kib: $0.element, anonymousKiB: $0.element / 4) }, commandsLost: 0,
            commandsCPUSeconds: 0.5, brokerCPUSeconds: 0.25, harnessCPUSeconds: 0.75, idle: idle)
    }

    @Test func requestsAreScaledToTheDefaultIntervalAndAnHour() {
        let idle = Self.idle
        // 40 requests in 20 s at 1 s → 8 at 5 s → 1,440 an hour.
        #expect(idle.requestsPerHour(idle.upstreams[0]) == 1_440)
        // 8 in 20 s at 5 s → 8 × 5/30 × 180.
        #expect(idle.requestsPerHour(idle.upstreams[1]) == 240)
        // Logins follow time only: 1 in 20 s → 180 an hour.
        #expect(idle.loginsPerHour(idle.upstreams[1]) == 180)
    }

    @Test func cpuTimeIsScaledByTheRequestsAtTheDefaults() throws {
        // 0.5 s for 48 requests; 1,680 requests an hour at the defaults.
        let perHour = try #require(Self.idle.cpuSecondsPerHourAtDefaults)
        #expect(abs(perHour - 0.5 / 48 * 1_680) < 1e-9)
    }

    @Test func growthIsJudgedAfterTheFirstBatch() {
        #expect(Self.footprint(resident: [10_000, 14_000, 14_500, 14_200]).residentGrowthAfterFirstBatchKiB == 200)
        #expect(Self.footprint(resident: [10_000, 14_000]).residentGrowthAfterFirstBatchKiB == nil)
        #expect(Self.footprint(resident: []).startToAllFirstStatesMs == 80)
    }

    @Test func cpuTimeIsSharedOutOverTheCommandsSent() throws {
        // 0.5 s over 2,000 commands: 250 µs each, so two cores answer 8,000 a second at most.
        #expect(try #require(Self.footprint(resident: [9_000, 9_500, 9_600]).cpuMicrosecondsPerCommand) == 250)
        #expect(Self.footprint(resident: [9_000]).cpuMicrosecondsPerCommand == nil)
        let results = BenchmarkResultsTests.results(pause: 1, broker: 0.25, http: 0.5, process: Self.footprint(resident: [9_000, 9_500, 9_600]))
        #expect(ReportTable.render(results).contains("250 µs; at most 8000 commands/s on two cores"))
        #expect(ReportJSONLine.render(results, commit: nil).contains(#""cpu_us_per_command":250"#))
    }

    /// What the broker and the harness spend beside the bridge bounds the run's answers a second.
    @Test func theBrokersAndTheHarnesssCPUTimeAreSharedOutToo() throws {
        let footprint = Self.footprint(resident: [9_000, 9_500, 9_600])
        #expect(footprint.allCPUMicrosecondsPerCommand == 750)
        let results = BenchmarkResultsTests.results(pause: 1, broker: 0.25, http: 0.5, process: footprint)
        #expect(ReportTable.render(results).contains(
            "beside it, per command: the broker 125 µs, the harness and its simulators 375 µs; all three 750 µs: at most 2667 commands/s on two cores"))
        let json = ReportJSONLine.render(results, commit: nil)
        #expect(json.contains(#""cpu_us_per_command_broker":125"#) && json.contains(#""cpu_us_per_command_harness":375"#))
    }

    @Test func theScaleRunHasItsLinesAndItsJSON() {
        let scale = ScaleFootprint(
            piHoles: 20, rules: 1_000, outlets: 100, startToAllStatesMs: 900, resident: [.init(commands: 0, kib: 20_480)],
            pollCycle: ["unifi": LatencySummary(milliseconds: [40])!],
            commandLatency: [.init(kind: BenchmarkResults.reefOutletSetKind, latency: LatencySummary(milliseconds: [2]), failures: 1)])
        let results = BenchmarkResults(
            build: "release", commandsPerKind: 1, commandLatency: [], floor: .init(alternated: .init()),
            throughput: [], footprint: .init(residentKiBAfterStart: nil, residentKiBAfterCommands: nil, strippedBinaryBytes: nil),
            scale: scale)
        let table = ReportTable.render(results)
        #expect(table.contains("scale: 20 Pi-holes, 1000 UniFi rules, 100 outlets"))
        #expect(table.contains("poll cycle: unifi refresh"))
        #expect(table.contains("1 failed"))
        let line = ReportJSONLine.render(results, commit: nil)
        #expect(line.contains(#""poll_cycle_ms":{"unifi":{"#))
        #expect(line.contains(#""start_to_all_states_ms":900"#))
    }

    @Test func theTableAndTheJSONLineCarryTheProcess() {
        let results = BenchmarkResultsTests.results(pause: 1, broker: 0.25, http: 0.5, process: Self.footprint(resident: [9_216, 10_240, 10_240]))
        let table = ReportTable.render(results)
        #expect(table.contains("start → online: 42.0 ms; → first state: pihole 60.0 ms, unifi 80.0 ms"))
        #expect(table.contains("9.0 MiB (2.3 MiB anonymous) after 0, 10.0 MiB (2.5 MiB anonymous) after 1000"))
        let line = ReportJSONLine.render(results, commit: nil)
        #expect(line.contains(#""start_to_online_ms":42"#))
        #expect(line.contains(#""requests_per_hour":1440"#))
    }

    @Test func withoutABinaryTheProcessIsNotMeasured() {
        let results = BenchmarkResultsTests.results(pause: 1, broker: 0.25, http: 0.5)
        #expect(ReportTable.render(results).contains("the bridge as a process: not measured"))
        #expect(ReportJSONLine.render(results, commit: nil).contains(#""process":null"#))
    }
}
