import BenchmarkReport

/// Commands of one kind, one at a time: publish → answer, after a warm-up that is not counted
/// (connections to the upstreams, first allocations).
enum CommandLatencyScenario {
    static let warmUp = 20

    static func measure(
        _ kind: String, count: Int, in world: BenchmarkWorld, command: (Int) -> BridgeCommand
    ) async -> BenchmarkResults.CommandLatency {
        for round in 0..<warmUp { _ = await world.client.send(command(round)) }
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        var failures = 0
        for round in 0..<count {
            switch await world.client.send(command(warmUp + round)) {
            case .ok(let elapsed): samples.append(elapsed)
            case .error, .lost: failures += 1
            }
        }
        return .init(kind: kind, latency: LatencySummary(samples), failures: failures)
    }
}
