import ArgumentParser
import BenchmarkReport

/// `home2mqtt-bench`: command latency beside the floor, throughput and footprint, in one run
/// against a real mosquitto, the simulators and the bridge in-process (docs/benchmarks.md).
@main
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home2mqtt-bench",
        abstract: "Measures the bridge beside the floor: a compact table, then one JSON line.")

    static let commandLimit = 20_000

    @Option(name: .long, help: "Commands per kind and per in-flight level (1…\(commandLimit)).")
    var commands: Int = 2_000

    @Flag(name: .long, help: "A short run for CI: 200 commands, 1 and 8 in flight.")
    var quick = false

    @Option(name: .long, help: "The commit measured, written into the JSON line (scripts/bench fills it in).")
    var commit: String?

    func validate() throws {
        guard (1...Self.commandLimit).contains(commands) else {
            throw ValidationError("--commands must be 1…\(Self.commandLimit), got \(commands)")
        }
    }

    var plan: (commands: Int, inFlight: [Int]) {
        quick ? (min(commands, 200), [1, 8]) : (commands, [1, 8, 64])
    }

    func run() async throws {
        let (count, inFlightLevels) = plan
        let results = try await BenchmarkWorld.run { world in
            let residentAfterStart = Footprint.residentKiB()
            let pause = await CommandLatencyScenario.measure(BenchmarkResults.piHolePauseKind, count: count, in: world) { _ in
                BridgeCommand.piHolePause(BenchmarkWorld.piHoleIDs[0])
            }
            let ruleSet = await CommandLatencyScenario.measure(BenchmarkResults.unifiRuleSetKind, count: count, in: world) { round in
                BridgeCommand.ruleSet(BenchmarkWorld.ruleKeys[0], round: round)
            }
            let floor = BenchmarkResults.Floor(
                brokerRoundTrip: try await FloorScenario.brokerRoundTrip(count: count, in: world),
                httpRequest: try await FloorScenario.httpRequest(count: count, baseURL: world.piHoles[BenchmarkWorld.piHoleIDs[0]]!.baseURL))
            var throughput: [BenchmarkResults.Throughput] = []
            for inFlight in inFlightLevels {
                throughput.append(await ThroughputScenario.measure(count: count, inFlight: inFlight, in: world))
            }
            return BenchmarkResults(
                build: Self.build, commandsPerKind: count, commandLatency: [pause, ruleSet], floor: floor, throughput: throughput,
                footprint: .init(
                    residentKiBAfterStart: residentAfterStart, residentKiBAfterCommands: Footprint.residentKiB(),
                    strippedBinaryBytes: Footprint.strippedBinaryBytes()))
        }
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
