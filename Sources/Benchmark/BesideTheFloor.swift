import BenchmarkReport

/// The Pi-hole pause, the floor (alternated, and its parts back to back) and the bare relay,
/// measured in turns: a block of each, then the next block of each, `turns` times. What the
/// bridge adds is a difference of figures taken seconds apart; measured one after the other, a
/// change in the machine's pace between them fell on one figure only (the floor moved more from
/// run to run than the pause did).
enum BesideTheFloor {
    static let turns = 10

    static func measure(count: Int, in world: BenchmarkWorld) async throws
        -> (pause: BenchmarkResults.CommandLatency, floor: BenchmarkResults.Floor)
    {
        let pause = BridgeCommand.Target.piHole("alpha")
        return try await RelayScenario.running(in: world) {
            try await PauseCall.withSession(baseURL: world.piHoles["alpha"]!.baseURL) { call in
                // The session's body prefers the bridge's loop, as the HTTP call must; the
                // measuring client's commands and round trips go out from where they always do.
                let warmUp = 0..<CommandLatencyScenario.warmUp
                try await withTaskExecutorPreference(globalConcurrentExecutor) {
                    await CommandLatencyScenario.warm(world, command: pause.command(round:))
                    _ = try await FloorScenario.brokerRoundTrips(warmUp, in: world)
                    _ = try await RelayScenario.samples(warmUp, in: world)
                }
                _ = try await FloorScenario.httpRequests(warmUp.count, through: call)

                var pauses = CommandLatencyScenario.Samples()
                var roundTrips: [Duration] = [], calls: [Duration] = [], relayed: [Duration] = []
                var alternatedTrips: [Duration] = [], alternatedCalls: [Duration] = []
                for block in MeasurementBlocks.blocks(of: CommandLatencyScenario.measured(count), turns: turns) {
                    let (pauseBlock, roundTripBlock) = try await withTaskExecutorPreference(globalConcurrentExecutor) {
                        (try await CommandLatencyScenario.samples(block, at: pause, in: world),
                         try await FloorScenario.brokerRoundTrips(block, in: world))
                    }
                    pauses += pauseBlock
                    roundTrips += roundTripBlock
                    calls += try await FloorScenario.httpRequests(block.count, through: call)
                    relayed += try await withTaskExecutorPreference(globalConcurrentExecutor) {
                        try await RelayScenario.samples(block, in: world)
                    }
                    let alternated = try await FloorScenario.alternated(block, in: world, through: call)
                    alternatedTrips += alternated.roundTrips
                    alternatedCalls += alternated.calls
                }
                let floor = BenchmarkResults.Floor(
                    alternated: .init(brokerRoundTrip: LatencySummary(alternatedTrips), httpRequest: LatencySummary(alternatedCalls)),
                    backToBack: .init(brokerRoundTrip: LatencySummary(roundTrips), httpRequest: LatencySummary(calls)),
                    relay: LatencySummary(relayed))
                return (pauses.summary(BenchmarkResults.piHolePauseKind), floor)
            }
        }
    }
}
