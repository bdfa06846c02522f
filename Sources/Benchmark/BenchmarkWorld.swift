import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import PiHoleIntegration
import PiHoleSimulator
import PiHoleTestSupport
import UniFiIntegration
import UniFiSimulator
import UniFiTestSupport

/// What one run measures against, all on loopback and all stopped afterwards: a mosquitto with
/// TCP_NODELAY, two Pi-hole simulators, a UniFi simulator over HTTPS (pinned, with the demo's
/// rules), the bridge in-process, and the measuring client.
struct BenchmarkWorld: Sendable {
    let piHoles: [String: PiHoleSimulator]
    let unifi: UniFiSimulator
    let client: MeasuringClient

    static let piHoleIDs = ["alpha", "beta"]
    static let ruleKeys = ["downtime-emma", "downtime-tablet"]
    static let echoTopic = "bench/echo"

    static func run<T: Sendable>(_ body: (BenchmarkWorld) async throws -> T) async throws -> T {
        try await withTestBroker(config: "set_tcp_nodelay true") { broker in
            try await withSimulators { piHoles, unifi in
                let yaml = bridgeYAML(broker: broker, piHoles: piHoles, unifi: unifi)
                let configuration = try testConfiguration(broker: broker, yaml: yaml)
                let environment = IntegrationEnvironment(logger: testLogger("bench-integrations"))
                let integrations = [
                    try PiHoleIntegrationFactory().make(section: configuration.section("pihole"), environment: environment),
                    try UniFiIntegrationFactory().make(section: configuration.section("unifi"), environment: environment),
                ].compactMap { $0 }
                return try await withRunningBridge(broker: broker, yaml: yaml, integrations: integrations) {
                    try await waitForFirstStates(broker)
                    return try await MeasuringClient.connected(to: broker) { client in
                        try await client.subscribe(MeasuringClient.replies + "/#")
                        try await client.subscribe(echoTopic + "/#")
                        return try await body(BenchmarkWorld(piHoles: piHoles, unifi: unifi, client: client))
                    }
                }
            }
        }
    }

    /// The bridge's configuration: both Pi-holes polled every second, the UniFi console every
    /// 5 s (the fixtures' settings), no discovery.
    static func bridgeYAML(broker: TestBroker, piHoles: [String: PiHoleSimulator], unifi: UniFiSimulator) -> String {
        "bridge:\n  discovery: false\n" + PiHoleFixture.yaml(piHoles) + UniFiFixture(broker: broker, simulator: unifi).yaml()
    }

    /// The state topics of every Pi-hole and rule, by integration.
    static let stateTopics = [
        "pihole": piHoleIDs.map { "home/pihole/\($0)" },
        "unifi": ruleKeys.map { "home/unifi/rule/\($0)" },
    ]

    /// Every Pi-hole and rule has published its state: the bridge has read them all once.
    private static func waitForFirstStates(_ broker: TestBroker) async throws {
        let topics = stateTopics.values.flatMap { $0 }
        try await Observer.watching(broker, subscribe: topics) { observer in
            for topic in topics { _ = try await observer.latest(topic, timeout: .seconds(30)) }
        }
    }

    /// Two Pi-hole simulators and a UniFi one with the demo's rules, for the length of `body`.
    static func withSimulators<T: Sendable>(
        _ body: ([String: PiHoleSimulator], UniFiSimulator) async throws -> T
    ) async throws -> T {
        var piHoles: [String: PiHoleSimulator] = [:]
        let unifi = UniFiSimulator()
        unifi.addDowntimeExamples()
        func stopAll() async {
            for simulator in piHoles.values { await simulator.stop() }
            await unifi.stop()
        }
        do {
            for id in piHoleIDs {
                let simulator = PiHoleSimulator(hostName: "pi-\(id)")
                piHoles[id] = simulator
                try await simulator.start()
            }
            try await unifi.start()
            let result = try await body(piHoles, unifi)
            await stopAll()
            return result
        } catch {
            await stopAll()
            throw error
        }
    }
}
