import BenchmarkReport
import Synchronization

/// `count` commands with `inFlight` outstanding at every moment, spread round-robin over
/// `targets` (each a lane of its own in the bridge: commands to different upstream objects do
/// not wait for each other). Stops sending after `budget`, so that a stuck bridge cannot hold the
/// run.
enum ThroughputScenario {
    static func measure(
        _ kind: String, count: Int, inFlight: Int, over targets: [BridgeCommand.Target], in world: BenchmarkWorld,
        budget: Duration = .seconds(120)
    ) async -> BenchmarkResults.Throughput {
        let numbers = CommandNumbers()
        let start = ContinuousClock.now
        let deadline = start + budget
        let outcomes = await withTaskGroup(of: [BridgeCommand.Outcome].self) { workers in
            for _ in 0..<inFlight {
                workers.addTask {
                    var outcomes: [BridgeCommand.Outcome] = []
                    while ContinuousClock.now < deadline {
                        let index = numbers.next()
                        guard index < count else { break }
                        let target = targets[index % targets.count]
                        outcomes.append(await world.client.send(target.command(round: index / targets.count)))
                    }
                    return outcomes
                }
            }
            return await workers.reduce(into: []) { $0 += $1 }
        }
        let seconds = (ContinuousClock.now - start).milliseconds / 1_000
        var ok = 0, failed = 0, lost = 0
        var samples: [Duration] = []
        for outcome in outcomes {
            switch outcome {
            case .ok(let elapsed): ok += 1; samples.append(elapsed)
            case .error(let elapsed): failed += 1; samples.append(elapsed)
            case .lost: lost += 1
            }
        }
        return .init(
            kind: kind, objects: targets.count, inFlight: inFlight, sent: outcomes.count, answeredOK: ok, answeredError: failed,
            lost: lost, seconds: seconds, latency: LatencySummary(samples))
    }

    /// Each kind alone at `inFlight`, over all its objects: `pihole`, `unifi`, `reef`.
    static func byKind(count: Int, inFlight: Int, in world: BenchmarkWorld) async -> [BenchmarkResults.Throughput] {
        let targets = world.layout.targets
        var levels: [BenchmarkResults.Throughput] = []
        for kind in ["pihole", "unifi", "reef"] {
            levels.append(await measure(kind, count: count, inFlight: inFlight, over: targets.filter { $0.integration == kind }, in: world))
        }
        return levels
    }
}

/// Hands out 0, 1, 2, … to the workers, each number once.
private final class CommandNumbers: Sendable {
    private let counter = Atomic<Int>(0)

    func next() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}
