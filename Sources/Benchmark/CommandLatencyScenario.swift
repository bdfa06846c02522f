import BenchmarkReport
import JSONDocument

/// Commands of one kind, one at a time: publish → answer, after a warm-up that is not counted
/// (connections to the upstreams, first allocations). With a `target`, also publish → the
/// simulator received the upstream call, and publish → the new state arrived on its state topic.
enum CommandLatencyScenario {
    static let warmUp = 20

    static func measure(
        _ kind: String, count: Int, in world: BenchmarkWorld, command: (Int) -> BridgeCommand
    ) async -> BenchmarkResults.CommandLatency {
        let run = await send(count: count, in: world, command: command)
        return .init(kind: kind, latency: LatencySummary(run.answers), failures: run.failures)
    }

    /// Every command to `target`, with the two stages on its way.
    static func measure(_ kind: String, count: Int, at target: BridgeCommand.Target, in world: BenchmarkWorld) async throws
        -> BenchmarkResults.CommandLatency
    {
        let (run, states) = try await world.client.recording(target.stateTopic) {
            await send(count: count, in: world, command: target.command(round:))
        }
        let measured = warmUp..<(warmUp + count)
        let calls = world.requests(reaching: target).map { (at: $0.receivedAt, event: $0) }
        let upstreamCalls = StageTiming.delays(sent: run.sent, events: calls, window: 1) { command, request in
            target.isUpstreamCall(request, round: measured.lowerBound + command)
        }
        let newStates = StageTiming.delays(sent: run.sent, events: states.map { (at: $0.instant, event: $0.payload) }, window: 2) {
            command, payload in JSONValue.parse(payload).map { target.showsCommand(round: measured.lowerBound + command, in: $0) } ?? false
        }
        return .init(
            kind: kind, latency: LatencySummary(run.answers), failures: run.failures,
            upstreamCall: LatencySummary(upstreamCalls), state: LatencySummary(newStates))
    }

    /// The warm-up, then `count` commands: when each measured one was sent, and the answers' times.
    private static func send(
        count: Int, in world: BenchmarkWorld, command: (Int) -> BridgeCommand
    ) async -> (sent: [ContinuousClock.Instant], answers: [Duration], failures: Int) {
        for round in 0..<warmUp { _ = await world.client.send(command(round)) }
        var sent: [ContinuousClock.Instant] = []
        var answers: [Duration] = []
        sent.reserveCapacity(count)
        answers.reserveCapacity(count)
        var failures = 0
        for round in 0..<count {
            let start = ContinuousClock.now
            sent.append(start)
            switch await world.client.send(command(warmUp + round), startingAt: start) {
            case .ok(let elapsed): answers.append(elapsed)
            case .error, .lost: failures += 1
            }
        }
        return (sent, answers, failures)
    }
}
