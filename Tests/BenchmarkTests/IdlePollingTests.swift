import BenchmarkReport
import Testing

/// The idle window as issue 10's "one hour of polling all integrations": how many hours of the
/// defaults' polls it held, and what the bridge's memory did meanwhile.
@Suite struct IdlePollingTests {
    static let upstreams: [IdlePolling.Upstream] = [
        .init(integration: "pihole", requests: 2_880, logins: 0, compressedInterval: 1, defaultInterval: 5),
        .init(integration: "unifi", requests: 144, logins: 0, compressedInterval: 5, defaultInterval: 30),
        .init(integration: "reef outlets", requests: 7_200, logins: 0, compressedInterval: 1, defaultInterval: 10),
    ]

    static func hour(resident: [IdlePolling.Resident]) -> IdlePolling {
        IdlePolling(seconds: 720, cpuSeconds: 3, upstreams: upstreams, resident: resident)
    }

    @Test func theWindowForAnHourIsSetByTheLeastCompressedUpstream() {
        // 1 s for 5: 720 s; 5 s for 30: 600 s; 1 s for 10: 360 s.
        #expect(IdlePolling.secondsForOneHour(compressedAndDefaultIntervals: [(1, 5), (5, 30), (1, 10)]) == 720)
        #expect(IdlePolling.secondsForOneHour(compressedAndDefaultIntervals: []) == 0)
    }

    @Test func theHoursHeldAreTheLeastAmongTheUpstreams() throws {
        // 720 s holds 1 h of the Pi-hole's polls, 1.2 h of UniFi's and 2 h of the outlets'.
        #expect(try #require(Self.hour(resident: []).hoursAtDefaults) == 1)
        let short = IdlePolling(seconds: 20, cpuSeconds: 0.1, upstreams: Self.upstreams)
        #expect(abs(try #require(short.hoursAtDefaults) - 20.0 / 720) < 1e-12)
        #expect(IdlePolling(seconds: 20, cpuSeconds: 0.1, upstreams: []).hoursAtDefaults == nil)
    }

    @Test func growthIsTheLastSampleLessTheFirst() {
        let polling = Self.hour(resident: [
            .init(seconds: 0, kib: 19_000, anonymousKiB: 4_300), .init(seconds: 72, kib: 19_400, anonymousKiB: 4_400),
            .init(seconds: 720, kib: 19_200, anonymousKiB: 4_350),
        ])
        #expect(polling.residentGrowthKiB == 200)
        #expect(Self.hour(resident: [.init(seconds: 0, kib: 19_000)]).residentGrowthKiB == nil)
    }

    @Test func theTableAndTheJSONLineCarryTheHourAndTheMemory() {
        let polling = Self.hour(resident: [.init(seconds: 0, kib: 19_456, anonymousKiB: 4_608), .init(seconds: 720, kib: 19_968, anonymousKiB: 5_120)])
        let footprint = ProcessFootprint(
            binary: "home2mqtt", startToOnlineMs: 42, startToFirstStateMs: ["pihole": 60], resident: [.init(commands: 0, kib: 18_432)],
            commandsLost: 0, idle: polling)
        let results = BenchmarkResultsTests.results(pause: 1, broker: 0.25, http: 0.5, process: footprint)
        let table = ReportTable.render(results)
        #expect(table.contains("idle polling, 720.0 s at compressed intervals (the polls of 1.00 h at the defaults, or more): 3.000 s CPU"))
        #expect(table.contains(
            "resident memory while polling: 19.0 MiB (4.5 MiB anonymous) at 0.0 s, 19.5 MiB (5.0 MiB anonymous) at 720.0 s; growth 0.5 MiB"))
        let line = ReportJSONLine.render(results, commit: nil)
        #expect(line.contains(#""hours_at_defaults":1"#))
        #expect(line.contains(#""resident_kib":[{"anonymous_kib":4608,"kib":19456,"seconds":0},{"anonymous_kib":5120,"kib":19968,"seconds":720}]"#))
    }
}
