import ArgumentParser
import BenchmarkReport
import BridgeTestSupport
import Foundation

/// `home2mqtt-bench`: command latency beside the floor, throughput and footprint, in one run
/// against a real mosquitto, the simulators and the bridge in-process, then the real binary as a
/// child process, at the usual size and at issue 10's scale (docs/benchmarks.md).
@main
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home2mqtt-bench",
        abstract: "Measures the bridge beside the floor: a compact table, then one JSON line.")

    static let commandLimit = 20_000
    /// Issue 10's 100,000 commands and some: at a few hundred a second, several minutes.
    static let processCommandLimit = 200_000

    @Option(name: .long, help: "Commands per kind and per in-flight level (1…\(commandLimit)).")
    var commands: Int = 2_000

    @Flag(name: .long, help: "A short run for CI: 200 commands, 1 and 8 in flight, a 2 s idle window, a small scale run.")
    var quick = false

    @Option(name: .long, help: "The home2mqtt binary measured as a child process (default: the one beside this executable, if built).")
    var bridgeBinary: String?

    @Option(name: .long, help: "Commands sent to the child process, in 5 batches, for its memory (default: 10 × --commands; --quick: 200).")
    var processCommands: Int?

    @Option(name: .long, help: "Seconds of idle polling measured in the child process (1…3600; default 20; --quick: 2).")
    var idleSeconds: Int?

    @Flag(name: .long, help: "An idle window that holds one hour of every integration's polls at the default intervals (720 s).")
    var pollingHour = false

    @Option(name: .long, help: "The commit measured, written into the JSON line (scripts/bench fills it in).")
    var commit: String?

    func validate() throws {
        guard (1...Self.commandLimit).contains(commands) else {
            throw ValidationError("--commands must be 1…\(Self.commandLimit), got \(commands)")
        }
        if let processCommands, !(1...Self.processCommandLimit).contains(processCommands) {
            throw ValidationError("--process-commands must be 1…\(Self.processCommandLimit), got \(processCommands)")
        }
        if let idleSeconds, !(1...3_600).contains(idleSeconds) {
            throw ValidationError("--idle-seconds must be 1…3600, got \(idleSeconds)")
        }
        if pollingHour, idleSeconds != nil {
            throw ValidationError("--polling-hour sets the idle window itself: leave out --idle-seconds")
        }
    }

    var plan: (commands: Int, inFlight: [Int]) {
        quick ? (min(commands, 200), [1, 8]) : (commands, [1, 8, 64, 256])
    }

    /// The child process's measurement, when there is a binary to measure.
    var processPlan: ProcessScenario.Plan? {
        let binary = bridgeBinary ?? BridgeProcess.executable
        guard FileManager.default.isExecutableFile(atPath: binary) else { return nil }
        return .init(
            binary: binary, commands: processCommands ?? (quick ? plan.commands : 10 * plan.commands), batches: 5,
            idle: pollingHour ? ProcessScenario.oneHourOfPolling : .seconds(idleSeconds ?? (quick ? 2 : 20)))
    }

    /// The scale scenario's, when there is a binary to measure: issue 10's sizes, or a small
    /// stand-in with `--quick`.
    var scalePlan: ScaleScenario.Plan? {
        processPlan.map { process in
            quick
                ? .init(layout: .quickScale, binary: process.binary, rounds: 1, commands: 20)
                : .init(layout: .scale, binary: process.binary, rounds: 5, commands: 200)
        }
    }

    func run() async throws {
        let (count, inFlightLevels) = plan
        let inProcess = try await BenchmarkWorld.run { world in
            let residentAfterStart = Footprint.residentKiB()
            let (pause, floor) = try await BesideTheFloor.measure(count: count, in: world)
            var latency = [pause]
            for (kind, target) in [
                (BenchmarkResults.unifiRuleSetKind, BridgeCommand.Target.rule("downtime-emma")),
                (BenchmarkResults.reefOutletSetKind, .outlet("return-pump")),
            ] {
                latency.append(try await CommandLatencyScenario.measure(kind, count: count, at: target, in: world))
            }
            var throughput: [BenchmarkResults.Throughput] = []
            for inFlight in inFlightLevels {
                throughput.append(await ThroughputScenario.measure(
                    BenchmarkResults.Throughput.allKinds, count: count, inFlight: inFlight, over: world.layout.targets, in: world))
            }
            let byKind = await ThroughputScenario.byKind(count: count, inFlight: quick ? 8 : 64, in: world)
            let residentAfterCommands = Footprint.residentKiB()
            return BenchmarkResults(
                build: Self.build, commandsPerKind: count, commandLatency: latency, floor: floor, throughput: throughput,
                throughputByKind: byKind,
                footprint: .init(
                    residentKiBAfterStart: residentAfterStart, residentKiBAfterCommands: residentAfterCommands,
                    strippedBinaryBytes: Footprint.strippedBinaryBytes()),
                freshness: try await FreshnessScenario.measure(rounds: quick ? 1 : 5, in: world))
        }
        var process: ProcessFootprint?
        if let processPlan { process = try await ProcessScenario.measure(processPlan) }
        var scale: ScaleFootprint?
        if let scalePlan { scale = try await ScaleScenario.measure(scalePlan) }
        let results = BenchmarkResults(
            build: inProcess.build, commandsPerKind: inProcess.commandsPerKind, commandLatency: inProcess.commandLatency,
            floor: inProcess.floor, throughput: inProcess.throughput, throughputByKind: inProcess.throughputByKind,
            footprint: inProcess.footprint, freshness: inProcess.freshness, process: process, scale: scale)
        print(ReportTable.render(results))
        print(ReportJSONLine.render(results, commit: commit))
    }

    static var build: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }
}
