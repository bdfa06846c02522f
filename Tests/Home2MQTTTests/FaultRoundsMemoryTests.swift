import AllUpstreamsTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// Issue 11, memory over many faults: the real process through rounds in which the broker
/// restarts (losing every retained message) and each upstream in turn fails and comes back, with
/// commands in between. Its heap must stay flat: a leak per reconnect, per failed request or per
/// lost session would show as growth from round to round.
@Suite struct FaultRoundsMemoryTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["HOME2MQTT_FAULT_ROUNDS"] ?? "") ?? 8
    /// The first rounds fill caches and pools; growth is measured from the end of this one.
    static let warmUpRounds = 2
    static let allowedGrowthKiB = 2048

    @Test func memoryStaysFlatThroughRoundsOfBrokerRestartsAndUpstreamFaults() async throws {
        try await AllUpstreams.run { upstreams in
            let bridge = try BridgeProcess(["run", "--config", upstreams.configFile()])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await Observer.watching(upstreams.broker, subscribe: ["home/#"]) { observer in
                try await AllUpstreams.waitUntilServing(observer)
                var heap: [Int] = []
                for round in 1...Self.rounds {
                    let onlineBefore = onlineCount(observer)
                    try await upstreams.broker.restart()
                    try await waitUntil("round \(round): the bridge back after the broker's restart", timeout: .seconds(30)) {
                        onlineCount(observer) > onlineBefore
                    }
                    try await upstreams.piHole.setFault(.serverError)
                    try await waitUntil("round \(round): Pi-hole unavailable", timeout: .seconds(30)) { FixtureUpstream.pihole.isAvailable(observer) == false }
                    try await upstreams.piHole.setFault(nil)
                    try await upstreams.reef.setFault(.down, on: .core)
                    try await waitUntil("round \(round): Reef unavailable", timeout: .seconds(30)) { FixtureUpstream.reef.isAvailable(observer) == false }
                    try await upstreams.reef.setFault(nil, on: .core)
                    upstreams.unifi.simulator.inject(.serverError)
                    _ = try await observer.command("home/unifi/refresh", "")
                    try await waitUntil("round \(round): UniFi unavailable", timeout: .seconds(30)) { FixtureUpstream.unifi.isAvailable(observer) == false }
                    upstreams.unifi.simulator.clearFaults()
                    _ = try await observer.command("home/unifi/refresh", "")
                    for upstream in FixtureUpstream.allCases {
                        try await waitUntil("round \(round): \(upstream) back", timeout: .seconds(60)) { upstream.isAvailable(observer) == true }
                    }
                    for index in 0..<5 {
                        for (topic, payload) in commands(index) {
                            let answer = try await observer.command(topic, payload, timeout: .seconds(30))
                            #expect(answer["status"] == "ok", "round \(round), \(topic) \(payload): \(answer)")
                        }
                    }
                    heap.append(try memory(bridge.child.pid, "RssAnon"))
                }
                let growth = heap.last! - heap[Self.warmUpRounds - 1]
                print("FaultRoundsMemoryTests: heap (RssAnon) after each of \(Self.rounds) rounds, kB: \(heap); growth after round \(Self.warmUpRounds): \(growth) kB")
                #expect(growth <= Self.allowedGrowthKiB, "heap after each round, kB: \(heap)")
            }
        }
    }
}

private func onlineCount(_ observer: Observer) -> Int {
    observer.recorder.messages.filter { $0.topic == "home/bridge/state" && $0.payloadString == BridgeTopics.online }.count
}

private func commands(_ index: Int) -> [(topic: String, payload: String)] {
    [
        ("home/pihole/main/pause", "\(10 + index)"),
        ("home/unifi/rule/downtime-emma/set", index % 2 == 0 ? "ON" : "OFF"),
        ("home/reef/outlet/heater/set", index % 2 == 0 ? "ON" : "OFF"),
    ]
}
