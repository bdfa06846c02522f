import BenchmarkReport
import Synchronization

/// `count` commands with `inFlight` outstanding at every moment, spread round-robin over both
/// Pi-holes (pause) and both UniFi rules (ON/OFF): commands to different upstream objects.
/// Stops sending after `budget`, so that a stuck bridge cannot hold the run.
enum ThroughputScenario {
    static func measure(count: Int, inFlight: Int, in world: BenchmarkWorld, budget: Duration = .seconds(120)) async -> BenchmarkResults.Throughput {
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
                        outcomes.append(await world.client.send(command(number: index)))
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
            inFlight: inFlight, sent: outcomes.count, answeredOK: ok, answeredError: failed, lost: lost,
            seconds: seconds, latency: LatencySummary(samples))
    }

    /// Command `index` of the run: Pi-hole a, Pi-hole b, rule a, rule b, Pi-hole a, …
    static func command(number index: Int) -> BridgeCommand {
        let piHoles = BenchmarkWorld.piHoleIDs, rules = BenchmarkWorld.ruleKeys
        let target = index % (piHoles.count + rules.count), round = index / (piHoles.count + rules.count)
        return target < piHoles.count ? .piHolePause(piHoles[target]) : .ruleSet(rules[target - piHoles.count], round: round)
    }
}

/// Hands out 0, 1, 2, … to the workers, each number once.
private final class CommandNumbers: Sendable {
    private let counter = Atomic<Int>(0)

    func next() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}
