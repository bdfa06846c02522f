import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import UniFiIntegration
import UniFiSimulator

/// A UniFi simulator over HTTPS (the demo household's rules), a broker, and a bridge pinned to
/// the simulator's certificate: for the integration's and the companion's tests.
public struct UniFiFixture: Sendable {
    public let broker: TestBroker
    public let simulator: UniFiSimulator

    public init(broker: TestBroker, simulator: UniFiSimulator) {
        self.broker = broker
        self.simulator = simulator
    }

    /// The `unifi:` section for this simulator, pinned to its certificate unless `trust` gives
    /// the TLS settings (`ca_file`, say) instead.
    public func yaml(
        apiKey: String = "sim-api-key", trust: [String: String]? = nil, extra: String = "", controllerExtra: String = ""
    ) -> String {
        let trust = (trust ?? ["tls_fingerprint": simulator.certificate?.opensslFingerprint ?? ""])
            .sorted { $0.key < $1.key }.map { "      \($0.key): \"\($0.value)\"\n" }.joined()
        return """
            unifi:
              poll_interval: 5
              request_timeout: 3
            \(extra)  controllers:
                - id: home
                  url: \(simulator.controllerURL)
                  api_key: \(apiKey)
            \(trust)\(controllerExtra)
            """
    }

    /// Starts a simulator with the demo's rules (unless `prepare` says otherwise) and a broker,
    /// runs `body`, stops both.
    public static func withSimulator(
        broker given: TestBroker? = nil, prepare: (UniFiSimulator) -> Void = { $0.addDowntimeExamples() },
        _ body: (UniFiFixture) async throws -> Void
    ) async throws {
        let simulator = UniFiSimulator()
        prepare(simulator)
        try await simulator.start()
        let broker: TestBroker
        do {
            if let given { broker = given } else { broker = try await TestBroker() }
        } catch {
            await simulator.stop()
            throw error
        }
        defer { if given == nil { broker.stop() } }
        do {
            try await body(UniFiFixture(broker: broker, simulator: simulator))
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    /// Runs the bridge on `yaml` (this fixture's by default) and an observer of `home/#` and
    /// `homeassistant/#` for the length of `body`; its log lines into `logs` when given; on
    /// `clock` (a `ManualClock` for a test on virtual time).
    public func runBridge(
        yaml: String? = nil, logs: LogCapture? = nil, clock: any BridgeClock = .system,
        observer configureObserver: (inout MQTTConfiguration) -> Void = { _ in }, _ body: (Observer) async throws -> Void
    ) async throws {
        let yaml = yaml ?? self.yaml()
        let configuration = try testConfiguration(broker: broker, yaml: yaml)
        let metrics = BridgeMetrics()
        let integration = try UniFiIntegrationFactory().make(
            section: configuration.section("unifi"),
            environment: IntegrationEnvironment(logger: logs?.logger("unifi") ?? testLogger("unifi"), metrics: metrics, clock: clock))
        try await withRunningBridge(
            broker: broker, yaml: yaml, integrations: [integration!], metrics: metrics, logger: logs?.logger("bridge") ?? testLogger("bridge"),
            clock: clock,
            observer: configureObserver
        ) { _ in
            try await Observer.watching(broker, subscribe: ["home/#", "homeassistant/#"], configure: configureObserver) { observer in
                try await body(observer)
            }
        }
    }

    /// PUTs the bridge sent to rule `id`.
    public func puts(_ id: String) -> Int {
        simulator.requestCount(method: "PUT", pathContaining: id)
    }
}
