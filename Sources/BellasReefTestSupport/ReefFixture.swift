import BellasReefIntegration
import BellasReefSimulator
import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport

/// A Bella's Reef simulator, a broker, and a running bridge wired to them: for the integration's
/// tests and for the companion commands' tests. Their suites are `.serialized`: each test runs a
/// broker, three listeners and a bridge, and one at a time per suite keeps the load bounded.
public struct ReefFixture: Sendable {
    public let broker: TestBroker
    public let simulator: BellasReefSimulator
    /// What the bridges it runs wait on: a test on virtual time passes a `ManualClock`.
    public let clock: any BridgeClock

    public init(broker: TestBroker, simulator: BellasReefSimulator, clock: any BridgeClock = .system) {
        self.broker = broker
        self.simulator = simulator
        self.clock = clock
    }

    /// The clock of a fixture made with a `ManualClock`, for a test on virtual time to advance.
    public var virtualClock: ManualClock {
        guard let clock = clock as? ManualClock else { preconditionFailure("this fixture runs on the system clock") }
        return clock
    }

    /// The `reef:` section for `simulator`: one-second polls; `settings` adds or replaces keys.
    public static func yaml(_ simulator: BellasReefSimulator, settings: [String: String] = [:]) -> String {
        var values = [
            "url": simulator.baseURL(.core), "temperature_url": simulator.baseURL(.temperature),
            "outlets_url": simulator.baseURL(.outlets), "username": "bellas", "password": "reefrocks",
            "metrics_interval": "1", "temperature_interval": "1", "outlets_interval": "1",
        ]
        values.merge(settings) { _, new in new }
        return "reef:\n" + values.sorted { $0.key < $1.key }.map { "  \($0.key): \"\($0.value)\"\n" }.joined()
    }

    /// Starts a simulator, a broker and the bridge; stops all after `body`.
    public static func run(
        options: BellasReefSimulator.Options = .init(), outlets: [SimulatedOutlet] = SimulatedOutlet.observed,
        probes: [SimulatedProbe] = SimulatedProbe.observed, settings: [String: String] = [:], bridgeYAML: String = "",
        clock: any BridgeClock = .system, _ body: (ReefFixture, Observer) async throws -> Void
    ) async throws {
        try await withLastingSimulator(options: options, outlets: outlets, probes: probes, clock: clock) { fixture in
            try await fixture.runBridge(yaml: bridgeYAML + yaml(fixture.simulator, settings: settings), body)
        }
    }

    /// A simulator and a broker that outlive the bridge runs in `body` (`fixture.runBridge`),
    /// to see what a start or a shutdown leaves behind.
    public static func withLastingSimulator(
        options: BellasReefSimulator.Options = .init(), outlets: [SimulatedOutlet] = SimulatedOutlet.observed,
        probes: [SimulatedProbe] = SimulatedProbe.observed, clock: any BridgeClock = .system, _ body: (ReefFixture) async throws -> Void
    ) async throws {
        let simulator = BellasReefSimulator(options: options, outlets: outlets, probes: probes)
        try await simulator.start()
        let broker = try await TestBroker()
        defer { broker.stop() }
        do {
            try await body(ReefFixture(broker: broker, simulator: simulator, clock: clock))
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    /// Runs the bridge on `yaml` with the Reef integration (and the scenes of `scenes:`, over it),
    /// and an observer of `home/#` and discovery.
    public func runBridge(yaml: String, _ body: (ReefFixture, Observer) async throws -> Void) async throws {
        try await runBridgeWithoutObserver(yaml: yaml) {
            try await Observer.watching(broker, subscribe: ["home/#", "homeassistant/#"]) { observer in
                try await body(self, observer)
            }
        }
    }

    /// Runs the bridge as `runBridge` does, without an observer; `waitingForOnline: false` starts
    /// `body` at once, for a broker that is away.
    public func runBridgeWithoutObserver(yaml: String, waitingForOnline: Bool = true, _ body: () async throws -> Void) async throws {
        let configuration = try testConfiguration(broker: broker, yaml: yaml)
        let metrics = BridgeMetrics()
        let integration = try ReefIntegrationFactory().make(
            section: configuration.section(ReefTopics.name), environment: IntegrationEnvironment(logger: testLogger("reef"), metrics: metrics, clock: clock))
        let scenes = try configuration.scenes(over: [integration!])
        try await withRunningBridge(
            broker: broker, yaml: yaml, integrations: [integration!] + (scenes.map { [$0] } ?? []), metrics: metrics, clock: clock,
            waitingForOnline: waitingForOnline) { _ in try await body() }
    }

    /// Requests `service` received whose path starts with `prefix`.
    public func calls(_ service: BellasReefSimulator.Service, _ prefix: String) -> [BellasReefSimulator.RecordedRequest] {
        simulator.requests(service).filter { $0.path.hasPrefix(prefix) }
    }

    /// Requests about one outlet (`…/outlets/<id>/…`), state reads included.
    public func outletCalls(_ id: String) -> [BellasReefSimulator.RecordedRequest] {
        calls(.outlets, "/api/smartoutlets/outlets/\(id)/")
    }
}
