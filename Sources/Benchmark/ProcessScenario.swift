import BenchmarkReport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import UniFiSimulator

/// The real `home2mqtt` binary as a child process, in a world of its own (a broker and the same
/// simulators, no bridge in-process): start → `online` and → first states, resident memory after
/// the start and after each batch of commands, then an idle window of polls for CPU time and
/// upstream requests.
enum ProcessScenario {
    struct Plan {
        let binary: String
        let commands: Int
        let batches: Int
        let idle: Duration
    }

    /// The defaults of `pihole.poll_interval` and `unifi.poll_interval` (README's table), and the
    /// compressed ones the run uses (`BenchmarkWorld.bridgeYAML`, the fixtures' settings).
    static let intervals = [
        "pihole": (compressed: 1, defaults: 5),
        "unifi": (compressed: 5, defaults: 30),
    ]

    static func measure(_ plan: Plan) async throws -> ProcessFootprint {
        try await withTestBroker(config: "set_tcp_nodelay true") { broker in
            try await BenchmarkWorld.withSimulators { piHoles, unifi in
                try await MeasuringClient.connected(to: broker) { client in
                    try await client.subscribe(MeasuringClient.replies + "/#")
                    let stateTopic = BridgeTopics(base: "home").state
                    for topic in [stateTopic] + BenchmarkWorld.stateTopics.values.flatMap({ $0 }) { try await client.subscribe(topic) }
                    let config = try BridgeProcess.writeConfig(BenchmarkWorld.bridgeYAML(broker: broker, piHoles: piHoles, unifi: unifi))
                    var bridge: BridgeProcess?
                    let start = ContinuousClock.now
                    let arrivals = try await client.firstArrivals(on: [stateTopic] + BenchmarkWorld.stateTopics.values.flatMap { $0 }, timeout: .seconds(30)) {
                        bridge = try BridgeProcess(["run", "--config", config], environment: [
                            "HOME2MQTT_MQTT__HOST": broker.host, "HOME2MQTT_MQTT__PORT": String(broker.port),
                            "HOME2MQTT_MQTT__CLIENT_ID": uniqueClientID("bench-process"),
                        ], executable: plan.binary)
                    }
                    guard let bridge else { throw TestSupportError("the bridge process did not start") }
                    defer { bridge.child.terminate() }
                    let world = BenchmarkWorld(piHoles: piHoles, unifi: unifi, client: client)
                    let footprint = try await measure(plan, bridge: bridge, world: world, arrivals: arrivals, since: start)
                    bridge.signal(SIGTERM)
                    _ = try await bridge.finish()
                    return footprint
                }
            }
        }
    }

    private static func measure(
        _ plan: Plan, bridge: BridgeProcess, world: BenchmarkWorld, arrivals: [String: MeasuringClient.Arrival],
        since start: ContinuousClock.Instant
    ) async throws -> ProcessFootprint {
        let online = arrivals[BridgeTopics(base: "home").state].flatMap { arrival in
            String(decoding: arrival.payload, as: UTF8.self) == BridgeTopics.online ? (arrival.instant - start).milliseconds : nil
        }
        var firstStates: [String: Double] = [:]
        for (integration, topics) in BenchmarkWorld.stateTopics {
            firstStates[integration] = topics.compactMap { arrivals[$0].map { ($0.instant - start).milliseconds } }.max()
        }
        let pid = String(bridge.child.pid)
        func resident(after commands: Int) -> ProcessFootprint.Resident? {
            Footprint.residentKiB(pid: pid).map { .init(commands: commands, kib: $0, anonymousKiB: Footprint.residentKiB(pid: pid, field: "RssAnon")) }
        }
        var samples = resident(after: 0).map { [$0] } ?? []
        var sent = 0, lost = 0
        let batch = max(1, plan.commands / plan.batches)
        while sent < plan.commands {
            let level = await ThroughputScenario.measure(count: min(batch, plan.commands - sent), inFlight: 8, in: world)
            sent += level.sent
            lost += level.lost
            if let sample = resident(after: sent) { samples.append(sample) }
        }
        return ProcessFootprint(
            binary: plan.binary, startToOnlineMs: online, startToFirstStateMs: firstStates, resident: samples,
            commandsLost: lost, idle: try await idlePolling(for: plan.idle, pid: bridge.child.pid, world: world))
    }

    /// Nothing but the bridge's polls for `window`: its CPU time and the requests each simulator
    /// received meanwhile.
    private static func idlePolling(for window: Duration, pid: Int32, world: BenchmarkWorld) async throws -> IdlePolling? {
        let piHoles = Array(world.piHoles.values)
        // Answers still on their way from the last batch settle first.
        try await Task.sleep(for: .seconds(1))
        for simulator in piHoles { simulator.clearRequests() }
        world.unifi.clearRequests()
        let logins = piHoles.reduce(0) { $0 + $1.loginCount }
        guard let cpuBefore = Footprint.cpuSeconds(pid: pid) else { return nil }
        let start = ContinuousClock.now
        try await Task.sleep(for: window)
        guard let cpuAfter = Footprint.cpuSeconds(pid: pid) else { return nil }
        let seconds = (ContinuousClock.now - start).milliseconds / 1_000
        let piHoleRequests = piHoles.reduce(0) { $0 + $1.requests.count }
        let unifiRequests = world.unifi.requestTotal
        func upstream(_ name: String, requests: Int, logins: Int) -> IdlePolling.Upstream {
            let interval = intervals[name]!
            return .init(integration: name, requests: requests, logins: logins, compressedInterval: interval.compressed, defaultInterval: interval.defaults)
        }
        return IdlePolling(seconds: seconds, cpuSeconds: cpuAfter - cpuBefore, upstreams: [
            upstream("pihole", requests: piHoleRequests, logins: piHoles.reduce(0) { $0 + $1.loginCount } - logins),
            upstream("unifi", requests: unifiRequests, logins: 0),  // an API key: no logins
        ])
    }
}
