import BenchmarkReport
import JSONDocument

/// How soon the state topic tells that a paused Pi-hole blocks again: a 3 s pause, then the time
/// from the instant the simulator's timer resumes blocking to the arrival of `enabled` on
/// `home/pihole/<id>`. The bridge polls every second in this run (the fixtures' settings).
enum FreshnessScenario {
    static let pause = 3

    static func measure(rounds: Int, in world: BenchmarkWorld) async throws -> LatencySummary? {
        let id = world.layout.piHoleIDs[0]
        guard let simulator = world.piHoles[id] else { return nil }
        let stateTopic = "home/pihole/\(id)"
        try await world.client.subscribe(stateTopic)
        var samples: [Duration] = []
        for _ in 0..<rounds {
            guard case .ok = await world.client.send(BridgeCommand(topic: "home/pihole/\(id)/pause", payload: "\(pause)")),
                  let remaining = simulator.timerRemaining else { continue }
            let resumed = ContinuousClock.now + .milliseconds(Int(remaining * 1_000))
            // State messages until the one that says enabled; the disabled ones come first.
            while true {
                let arrivals = try await world.client.firstArrivals(on: [stateTopic], timeout: .seconds(Self.pause + 10)) {}
                guard let arrival = arrivals[stateTopic] else { break }
                if JSONValue.parse(arrival.payload)?["blocking"] == "enabled" {
                    samples.append(arrival.instant - resumed)
                    break
                }
            }
        }
        return LatencySummary(samples)
    }
}
