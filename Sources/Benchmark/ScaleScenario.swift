import BenchmarkReport
import BridgeTestSupport

/// Issue 10's scale: 20 Pi-holes, 1,000 UniFi rules and 100 outlets in one bridge, the real
/// binary as a child process: how soon it has told every state, what it holds, how long one poll
/// cycle of each integration takes, and a command's latency among so many objects.
enum ScaleScenario {
    struct Plan {
        let layout: BenchmarkWorld.Layout
        let binary: String
        /// Refresh commands per integration, and commands per kind.
        let rounds: Int
        let commands: Int
    }

    static let kinds = [
        (BenchmarkResults.piHolePauseKind, "pihole"), (BenchmarkResults.unifiRuleSetKind, "unifi"),
        (BenchmarkResults.reefOutletSetKind, "reef"),
    ]

    static func measure(_ plan: Plan) async throws -> ScaleFootprint {
        let layout = plan.layout
        return try await ProcessScenario.withBridgeProcess(layout, binary: plan.binary) { bridge, world, arrivals, start in
            let stateTopics = layout.stateTopics.values.flatMap { $0 }
            // `firstArrivals` has thrown unless every state came.
            let everyState = stateTopics.compactMap { arrivals[$0].map { ($0.instant - start).milliseconds } }.max()
            var resident = ProcessScenario.resident(pid: bridge.child.pid, after: 0).map { [$0] } ?? []
            var cycles: [String: LatencySummary] = [:]
            for (_, integration) in kinds {
                var samples: [Duration] = []
                for _ in 0..<plan.rounds {
                    let refresh = BridgeCommand(topic: "home/\(integration)/refresh", payload: "")
                    if case .ok(let elapsed) = await world.client.send(refresh, timeout: .seconds(60)) { samples.append(elapsed) }
                }
                cycles[integration] = LatencySummary(samples)
            }
            var latency: [BenchmarkResults.CommandLatency] = []
            for (kind, integration) in kinds {
                let targets = layout.targets.filter { $0.integration == integration }
                latency.append(await CommandLatencyScenario.measure(kind, count: plan.commands, in: world) { round in
                    targets[round % targets.count].command(round: round / targets.count)
                })
            }
            let sent = kinds.count * (CommandLatencyScenario.warmUp + plan.commands)
            if let sample = ProcessScenario.resident(pid: bridge.child.pid, after: sent) { resident.append(sample) }
            return ScaleFootprint(
                piHoles: layout.piHoles, rules: layout.rules, outlets: layout.outlets,
                startToAllStatesMs: everyState, resident: resident,
                pollCycle: cycles, commandLatency: latency)
        }
    }
}
