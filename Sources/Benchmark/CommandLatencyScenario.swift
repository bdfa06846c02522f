import BenchmarkReport
import JSONDocument

/// Commands of one kind, one at a time: publish → answer, after a warm-up that is not counted
/// (connections to the upstreams, first allocations). With a `target`, also publish → the
/// simulator received the upstream call, and publish → the new state arrived on its state topic.
/// Rounds are numbered from the first of the warm-up, so a series measured in blocks
/// (`BesideTheFloor`) goes on where the block before it stopped.
enum CommandLatencyScenario {
    static let warmUp = 20
    /// The rounds measured after the warm-up, `count` of them.
    static func measured(_ count: Int) -> Range<Int> { warmUp..<(warmUp + count) }

    /// What a series gave before it is summed up: the samples of several blocks add up.
    struct Samples: Sendable {
        var answers: [Duration] = []
        var upstreamCalls: [Duration] = []
        var states: [Duration] = []
        var failures = 0

        static func += (samples: inout Samples, block: Samples) {
            samples.answers += block.answers
            samples.upstreamCalls += block.upstreamCalls
            samples.states += block.states
            samples.failures += block.failures
        }

        func summary(_ kind: String) -> BenchmarkResults.CommandLatency {
            .init(
                kind: kind, latency: LatencySummary(answers), failures: failures,
                upstreamCall: LatencySummary(upstreamCalls), state: LatencySummary(states))
        }
    }

    static func measure(
        _ kind: String, count: Int, in world: BenchmarkWorld, command: (Int) -> BridgeCommand
    ) async -> BenchmarkResults.CommandLatency {
        await warm(world, command: command)
        return await samples(measured(count), in: world, command: command).summary(kind)
    }

    /// Every command to `target`, with the two stages on its way.
    static func measure(_ kind: String, count: Int, at target: BridgeCommand.Target, in world: BenchmarkWorld) async throws
        -> BenchmarkResults.CommandLatency
    {
        await warm(world, command: target.command(round:))
        return try await samples(measured(count), at: target, in: world).summary(kind)
    }

    /// The warm-up's rounds, not counted.
    static func warm(_ world: BenchmarkWorld, command: (Int) -> BridgeCommand) async {
        for round in 0..<warmUp { _ = await world.client.send(command(round)) }
    }

    static func samples(_ rounds: Range<Int>, in world: BenchmarkWorld, command: (Int) -> BridgeCommand) async -> Samples {
        let run = await send(rounds, in: world, command: command)
        return Samples(answers: run.answers, failures: run.failures)
    }

    /// `rounds` to `target`, with the two stages on their way.
    static func samples(_ rounds: Range<Int>, at target: BridgeCommand.Target, in world: BenchmarkWorld) async throws -> Samples {
        let (run, states) = try await world.client.recording(target.stateTopic) {
            await send(rounds, in: world, command: target.command(round:))
        }
        let calls = world.requests(reaching: target).map { (at: $0.receivedAt, event: $0) }
        let upstreamCalls = StageTiming.delays(sent: run.sent, events: calls, window: 1) { command, request in
            target.isUpstreamCall(request, round: rounds.lowerBound + command)
        }
        let newStates = StageTiming.delays(sent: run.sent, events: states.map { (at: $0.instant, event: $0.payload) }, window: 2) {
            command, payload in JSONValue.parse(payload).map { target.showsCommand(round: rounds.lowerBound + command, in: $0) } ?? false
        }
        return Samples(answers: run.answers, upstreamCalls: upstreamCalls, states: newStates, failures: run.failures)
    }

    /// `rounds`, one at a time: when each was sent, and the answers' times.
    private static func send(
        _ rounds: Range<Int>, in world: BenchmarkWorld, command: (Int) -> BridgeCommand
    ) async -> (sent: [ContinuousClock.Instant], answers: [Duration], failures: Int) {
        var sent: [ContinuousClock.Instant] = []
        var answers: [Duration] = []
        sent.reserveCapacity(rounds.count)
        answers.reserveCapacity(rounds.count)
        var failures = 0
        for round in rounds {
            let start = ContinuousClock.now
            sent.append(start)
            switch await world.client.send(command(round), startingAt: start) {
            case .ok(let elapsed): answers.append(elapsed)
            case .error, .lost: failures += 1
            }
        }
        return (sent, answers, failures)
    }
}
