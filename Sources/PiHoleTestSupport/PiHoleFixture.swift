import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import PiHoleIntegration
import PiHoleSimulator

/// Pi-hole simulators, a broker, and a running bridge wired to them: for the integration's tests
/// and for the companion commands' tests, which run the real binary against it.
public struct PiHoleFixture: Sendable {
    public let broker: TestBroker
    public let simulators: [String: PiHoleSimulator]
    /// What the bridges it runs wait on: a test on virtual time passes a `ManualClock`.
    public let clock: any BridgeClock

    public init(broker: TestBroker, simulators: [String: PiHoleSimulator], clock: any BridgeClock = .system) {
        self.broker = broker
        self.simulators = simulators
        self.clock = clock
    }

    /// The `pihole:` section for `simulators`; `instanceSettings` are added to each instance
    /// (its TLS trust, say).
    public static func yaml(
        _ simulators: [String: PiHoleSimulator], password: String = "correct horse", pollInterval: Int = 1, extra: String = "",
        instanceSettings: [String: String] = [:]
    ) -> String {
        var text = "pihole:\n  poll_interval: \(pollInterval)\n\(extra)  instances:\n"
        for (id, simulator) in simulators.sorted(by: { $0.key < $1.key }) {
            text += "    - id: \(id)\n      url: \(simulator.baseURL)\n      password: \(password)\n"
            text += instanceSettings.sorted { $0.key < $1.key }.map { "      \($0.key): \"\($0.value)\"\n" }.joined()
        }
        return text
    }

    /// Starts the simulators (ids → simulator), a broker unless given, and the bridge; stops all after `body`.
    public static func run(
        ids: [String] = ["main"], broker: TestBroker? = nil, brokerYAML: String = "", password: String = "correct horse",
        pollInterval: Int = 1, extraPiHoleYAML: String = "", observer configureObserver: (inout MQTTConfiguration) -> Void = { _ in },
        clock: any BridgeClock = .system, _ body: (PiHoleFixture, Observer) async throws -> Void
    ) async throws {
        var simulators: [String: PiHoleSimulator] = [:]
        for id in ids {
            let simulator = PiHoleSimulator(hostName: "pi-\(id)")
            try await simulator.start()
            simulators[id] = simulator
        }
        let ownBroker: TestBroker?
        if broker == nil { ownBroker = try await TestBroker() } else { ownBroker = nil }
        let broker = broker ?? ownBroker!
        let fixture = PiHoleFixture(broker: broker, simulators: simulators, clock: clock)
        do {
            try await fixture.runBridge(
                yaml: brokerYAML + yaml(simulators, password: password, pollInterval: pollInterval, extra: extraPiHoleYAML),
                observer: configureObserver, body)
        } catch {
            for simulator in simulators.values { await simulator.stop() }
            ownBroker?.stop()
            throw error
        }
        for simulator in simulators.values { await simulator.stop() }
        ownBroker?.stop()
    }

    /// One simulator, set up by `prepare` before it listens, and a broker: both outlive the bridge
    /// runs in `body` (`fixture.runBridge`), to see what a start or a shutdown leaves behind.
    public static func withLastingSimulator(
        hostName: String = "pi-sim", prepare: (PiHoleSimulator) -> Void = { _ in },
        _ body: (PiHoleSimulator, PiHoleFixture) async throws -> Void
    ) async throws {
        let simulator = PiHoleSimulator(hostName: hostName)
        prepare(simulator)
        try await simulator.start()
        let broker = try await TestBroker()
        defer { broker.stop() }
        do {
            try await body(simulator, PiHoleFixture(broker: broker, simulators: ["main": simulator]))
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    /// Runs the bridge on `yaml`; `configureObserver` sets up the clients that watch it.
    public func runBridge(yaml: String, observer configureObserver: (inout MQTTConfiguration) -> Void = { _ in }, _ body: (PiHoleFixture, Observer) async throws -> Void) async throws {
        let configuration = try testConfiguration(broker: broker, yaml: yaml)
        let metrics = BridgeMetrics()
        let integration = try PiHoleIntegrationFactory().make(
            section: configuration.section("pihole"), environment: IntegrationEnvironment(logger: testLogger("pihole"), metrics: metrics, clock: clock)
        )
        try await withRunningBridge(
            broker: broker, yaml: yaml, integrations: [integration!], metrics: metrics, clock: clock, observer: configureObserver
        ) { _ in
            try await Observer.watching(broker, subscribe: ["home/#", "homeassistant/#"], configure: configureObserver) { observer in
                try await body(self, observer)
            }
        }
    }

    public subscript(id: String) -> PiHoleSimulator { simulators[id]! }

    /// Requests the bridge made to a simulator's path prefix (not counting logins).
    public func calls(_ id: String, _ prefix: String) -> [PiHoleSimulator.RecordedRequest] {
        self[id].requests.filter { $0.path.hasPrefix(prefix) }
    }
}
