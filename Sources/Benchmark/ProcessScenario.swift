import BenchmarkReport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import UniFiSimulator

/// The real `home2mqtt` binary as a child process, in a world of its own (a broker and the same
/// simulators, no bridge in-process): start → `online` and → first states, resident memory after
/// the start and after each batch of commands, the CPU time they took, then an idle window of
/// polls for CPU time and upstream requests.
enum ProcessScenario {
    struct Plan {
        let binary: String
        let commands: Int
        let batches: Int
        let idle: Duration
    }

    /// The defaults of each poll interval (README's table), and the compressed ones the run uses
    /// (`BenchmarkWorld.bridgeYAML`: the fixtures' settings, `piHoleDetailIntervals` and
    /// `reefIntervals`), by upstream.
    static let intervals = [
        "pihole": (compressed: 1, defaults: 5),
        "unifi": (compressed: 5, defaults: 30),
        "reef core": (compressed: 3, defaults: 30),
        "reef temperature": (compressed: 3, defaults: 30),
        "reef outlets": (compressed: 1, defaults: 10),
    ]

    static func measure(_ plan: Plan) async throws -> ProcessFootprint {
        try await withBridgeProcess(.standard, binary: plan.binary) { bridge, world, arrivals, start in
            try await measure(plan, bridge: bridge, world: world, arrivals: arrivals, since: start)
        }
    }

    /// A broker, the simulators of `layout` and the binary started against them, as a user starts
    /// it (`home2mqtt run --config FILE`), until `body` is done; then SIGTERM. `body` gets the
    /// first arrival on the bridge's state topic and on every object's, and the instant of the spawn.
    static func withBridgeProcess<T: Sendable>(
        _ layout: BenchmarkWorld.Layout, binary: String,
        _ body: (BridgeProcess, BenchmarkWorld, [String: MeasuringClient.Arrival], ContinuousClock.Instant) async throws -> T
    ) async throws -> T {
        try await withTestBroker(config: "set_tcp_nodelay true", logging: .asDeployed) { broker in
            try await BenchmarkWorld.withSimulators(layout) { piHoles, unifi, reef in
                try await MeasuringClient.connected(to: broker) { client in
                    try await client.subscribe(MeasuringClient.replies + "/#")
                    let topics = [BridgeTopics(base: "home").state] + layout.stateTopics.values.flatMap { $0 }
                    for topic in topics { try await client.subscribe(topic) }
                    let config = try BridgeProcess.writeConfig(BenchmarkWorld.bridgeYAML(broker: broker, piHoles: piHoles, unifi: unifi, reef: reef))
                    var bridge: BridgeProcess?
                    PageCache.evict(binary)
                    let start = ContinuousClock.now
                    let arrivals = try await client.firstArrivals(on: topics, timeout: .seconds(60)) {
                        bridge = try BridgeProcess(["run", "--config", config], environment: [
                            "HOME2MQTT_MQTT__HOST": broker.host, "HOME2MQTT_MQTT__PORT": String(broker.port),
                            "HOME2MQTT_MQTT__CLIENT_ID": uniqueClientID("bench-process"),
                        ], executable: binary)
                    }
                    guard let bridge else { throw TestSupportError("the bridge process did not start") }
                    defer { bridge.child.terminate() }
                    let world = BenchmarkWorld(layout: layout, piHoles: piHoles, unifi: unifi, reef: reef, client: client, broker: broker)
                    let result = try await body(bridge, world, arrivals, start)
                    bridge.signal(SIGTERM)
                    _ = try await bridge.finish()
                    return result
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
        for (integration, topics) in world.layout.stateTopics {
            firstStates[integration] = topics.compactMap { arrivals[$0].map { ($0.instant - start).milliseconds } }.max()
        }
        let pid = bridge.child.pid
        var samples = resident(pid: pid, after: 0).map { [$0] } ?? []
        var sent = 0, lost = 0
        let batch = max(1, plan.commands / plan.batches)
        let brokerPID = world.broker.pid, harnessPID = getpid()
        let cpuBefore = Footprint.cpuSeconds(pid: pid)
        let brokerCPUBefore = brokerPID.flatMap(Footprint.cpuSeconds), harnessCPUBefore = Footprint.cpuSeconds(pid: harnessPID)
        while sent < plan.commands {
            let level = await ThroughputScenario.measure(
                BenchmarkResults.Throughput.allKinds, count: min(batch, plan.commands - sent), inFlight: 8, over: world.layout.targets,
                in: world)
            sent += level.sent
            lost += level.lost
            if let sample = resident(pid: pid, after: sent) { samples.append(sample) }
        }
        let cpuAfter = Footprint.cpuSeconds(pid: pid)
        let brokerCPUAfter = brokerPID.flatMap(Footprint.cpuSeconds), harnessCPUAfter = Footprint.cpuSeconds(pid: harnessPID)
        return ProcessFootprint(
            binary: plan.binary, startToOnlineMs: online, startToFirstStateMs: firstStates, resident: samples,
            commandsLost: lost, commandsCPUSeconds: difference(cpuBefore, cpuAfter),
            brokerCPUSeconds: difference(brokerCPUBefore, brokerCPUAfter), harnessCPUSeconds: difference(harnessCPUBefore, harnessCPUAfter),
            idle: try await idlePolling(for: plan.idle, pid: pid, world: world))
    }

    private static func difference(_ before: Double?, _ after: Double?) -> Double? {
        before.flatMap { before in after.map { $0 - before } }
    }

    /// The child's `VmRSS` and `RssAnon` once it has answered `commands`.
    static func resident(pid: Int32, after commands: Int) -> ProcessFootprint.Resident? {
        Footprint.resident(pid: pid).map { .init(commands: commands, kib: $0.kib, anonymousKiB: $0.anonymousKiB) }
    }

    /// The idle window that holds an hour of every upstream's polls at the default intervals
    /// (`--polling-hour`): 720 s, as the Pi-hole is polled every second for every 5 s.
    static var oneHourOfPolling: Duration {
        .seconds(IdlePolling.secondsForOneHour(compressedAndDefaultIntervals: Array(intervals.values)))
    }

    /// Nothing but the bridge's polls for `window`: its CPU time, the requests each simulator
    /// received meanwhile, and its resident memory at the start and at each tenth of the window.
    private static func idlePolling(for window: Duration, pid: Int32, world: BenchmarkWorld) async throws -> IdlePolling? {
        let piHoles = Array(world.piHoles.values)
        // Answers still on their way from the last batch settle first.
        try await Task.sleep(for: .seconds(1))
        for simulator in piHoles { simulator.clearRequests() }
        world.unifi.clearRequests()
        world.reef.clearRequests()
        let piHoleLogins = piHoles.reduce(0) { $0 + $1.loginCount }, reefLogins = world.reef.loginCount
        guard let cpuBefore = Footprint.cpuSeconds(pid: pid) else { return nil }
        let start = ContinuousClock.now
        var resident = residentWhilePolling(pid: pid, since: start).map { [$0] } ?? []
        for tenth in 1...10 {
            try await Task.sleep(until: start + window * tenth / 10)
            if let sample = residentWhilePolling(pid: pid, since: start) { resident.append(sample) }
        }
        guard let cpuAfter = Footprint.cpuSeconds(pid: pid) else { return nil }
        let seconds = (ContinuousClock.now - start).milliseconds / 1_000
        func upstream(_ name: String, requests: Int, logins: Int) -> IdlePolling.Upstream {
            let interval = intervals[name]!
            return .init(integration: name, requests: requests, logins: logins, compressedInterval: interval.compressed, defaultInterval: interval.defaults)
        }
        return IdlePolling(seconds: seconds, cpuSeconds: cpuAfter - cpuBefore, upstreams: [
            upstream("pihole", requests: piHoles.reduce(0) { $0 + $1.requestTotal }, logins: piHoles.reduce(0) { $0 + $1.loginCount } - piHoleLogins),
            upstream("unifi", requests: world.unifi.requestTotal, logins: 0),  // an API key: no logins
            // The Reef's logins are counted once, on the core, where they are made.
            upstream("reef core", requests: world.reef.requests(.core).count, logins: world.reef.loginCount - reefLogins),
            upstream("reef temperature", requests: world.reef.requests(.temperature).count, logins: 0),
            upstream("reef outlets", requests: world.reef.requests(.outlets).count, logins: 0),
        ], resident: resident)
    }

    private static func residentWhilePolling(pid: Int32, since start: ContinuousClock.Instant) -> IdlePolling.Resident? {
        Footprint.resident(pid: pid).map {
            .init(seconds: (ContinuousClock.now - start).milliseconds / 1_000, kib: $0.kib, anonymousKiB: $0.anonymousKiB)
        }
    }
}
