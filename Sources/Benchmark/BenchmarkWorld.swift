import BellasReefIntegration
import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import PiHoleIntegration
import PiHoleSimulator
import PiHoleTestSupport
import SimulatorSupport
import UniFiIntegration
import UniFiSimulator
import UniFiTestSupport

/// What one run measures against, all on loopback and all stopped afterwards: a mosquitto with
/// TCP_NODELAY, Pi-hole simulators, a UniFi simulator over HTTPS (pinned, with the demo's rules
/// and more), a Bella's Reef simulator, the bridge (in-process, or the real binary as a child
/// process), and the measuring client.
struct BenchmarkWorld: Sendable {
    let layout: Layout
    let piHoles: [String: PiHoleSimulator]
    let unifi: UniFiSimulator
    let reef: BellasReefSimulator
    let client: MeasuringClient
    /// The mosquitto the world's bridge talks to, for its CPU time.
    let broker: TestBroker

    /// How many upstream objects of each kind, each a lane of its own in the bridge.
    struct Layout: Sendable {
        let piHoles: Int
        /// Managed UniFi rules (named `downtime…`): the demo's four (three of them editable),
        /// the rest made up.
        let rules: Int
        /// Switchable outlets: the observed controller's two enabled ones, the rest made up.
        let outlets: Int

        /// The main run: enough objects that 64 commands in flight spread over 20 lanes.
        static let standard = Layout(piHoles: 4, rules: 8, outlets: 8)
        /// Issue 10's scale: 20 Pi-holes, 1,000 UniFi rules, 100 outlets in one bridge.
        static let scale = Layout(piHoles: 20, rules: 1_000, outlets: 100)
        /// A small stand-in for the scale, for `--quick` (CI keeps the scenario from rotting).
        static let quickScale = Layout(piHoles: 3, rules: 20, outlets: 5)

        /// `alpha` and `beta` first (the floor and freshness use `alpha`), then `pi-3`, …
        var piHoleIDs: [String] { (0..<piHoles).map { $0 < 2 ? ["alpha", "beta"][$0] : "pi-\($0 + 1)" } }
        static let editableDemoRules = ["downtime-emma", "downtime-tablet", "downtime-leo"]
        /// The demo's managed rules include a DERIVED one, which cannot be switched.
        static let demoRuleCount = 4
        var generatedRules: Int { max(0, rules - Self.demoRuleCount) }
        var ruleKeys: [String] { Self.editableDemoRules + (0..<generatedRules).map { "downtime-bench-\($0 + 1)" } }
        static let observedOutlets = ["return-pump", "heater"]
        var generatedOutlets: Int { max(0, outlets - Self.observedOutlets.count) }
        var outletKeys: [String] { Self.observedOutlets + (0..<generatedOutlets).map { "bench-outlet-\($0 + 1)" } }

        /// Every object commands can go to.
        var targets: [BridgeCommand.Target] {
            piHoleIDs.map { .piHole($0) } + ruleKeys.map { .rule($0) } + outletKeys.map { .outlet($0) }
        }

        /// The state topics of every object, by integration.
        var stateTopics: [String: [String]] {
            Dictionary(grouping: targets, by: \.integration).mapValues { $0.map(\.stateTopic) }
        }
    }

    static let echoTopic = "bench/echo"

    /// The requests kept by the simulator that `target`'s commands reach (the newest 10,000).
    func requests(reaching target: BridgeCommand.Target) -> [RecordedRequest] {
        switch target {
        case .piHole(let id): piHoles[id]?.requests ?? []
        case .rule: unifi.requests
        case .outlet: reef.requests(.outlets)
        }
    }

    /// The world with the bridge in-process.
    static func run<T: Sendable>(_ layout: Layout = .standard, _ body: (BenchmarkWorld) async throws -> T) async throws -> T {
        try await withTestBroker(config: "set_tcp_nodelay true", logging: .asDeployed) { broker in
            try await withSimulators(layout) { piHoles, unifi, reef in
                let yaml = bridgeYAML(broker: broker, piHoles: piHoles, unifi: unifi, reef: reef)
                let configuration = try testConfiguration(broker: broker, yaml: yaml)
                let environment = IntegrationEnvironment(logger: testLogger("bench-integrations"))
                let integrations = [
                    try PiHoleIntegrationFactory().make(section: configuration.section("pihole"), environment: environment),
                    try UniFiIntegrationFactory().make(section: configuration.section("unifi"), environment: environment),
                    try ReefIntegrationFactory().make(section: configuration.section(ReefTopics.name), environment: environment),
                ].compactMap { $0 }
                return try await withRunningBridge(broker: broker, yaml: yaml, integrations: integrations) { _ in
                    try await waitForFirstStates(broker, layout)
                    return try await MeasuringClient.connected(to: broker) { client in
                        try await client.subscribe(MeasuringClient.replies + "/#")
                        try await client.subscribe(echoTopic + "/#")
                        return try await body(BenchmarkWorld(layout: layout, piHoles: piHoles, unifi: unifi, reef: reef, client: client, broker: broker))
                    }
                }
            }
        }
    }

    /// The Reef's intervals, each a tenth of its default (30, 30 and 10 s), as the Pi-hole's 1 s
    /// is a fifth of its 5 s: compressed, so that the polls run during the measurement.
    static let reefIntervals = ["metrics_interval": "3", "temperature_interval": "3", "outlets_interval": "1"]

    /// The Pi-hole's slower reads compressed as its state poll is, 1 s for 5 s: statistics and
    /// groups every 12 s for 60, seats and warnings every 60 s for 300. So an idle window holds
    /// the same hours of every Pi-hole read, and its requests scale back to the defaults exactly.
    /// (The versions, read hourly, cannot be set: a window of an hour's polls holds none of them.)
    static let piHoleDetailIntervals = "  stats_interval: 12\n  diagnostics_interval: 60\n"

    /// The bridge's configuration: every Pi-hole polled every second (the fixtures' setting) and
    /// its slower reads at `piHoleDetailIntervals`, the UniFi console every 5 s (the fixtures'
    /// setting), the Reef at `reefIntervals`, no discovery.
    static func bridgeYAML(
        broker: TestBroker, piHoles: [String: PiHoleSimulator], unifi: UniFiSimulator, reef: BellasReefSimulator
    ) -> String {
        "bridge:\n  discovery: false\n" + PiHoleFixture.yaml(piHoles, extra: piHoleDetailIntervals)
            + UniFiFixture(broker: broker, simulator: unifi).yaml() + ReefFixture.yaml(reef, settings: reefIntervals)
    }

    /// Every object has published its state: the bridge has read them all once.
    private static func waitForFirstStates(_ broker: TestBroker, _ layout: Layout) async throws {
        let topics = layout.stateTopics.values.flatMap { $0 }
        try await Observer.watching(broker, subscribe: topics) { observer in
            for topic in topics { _ = try await observer.latest(topic, timeout: .seconds(60)) }
        }
    }

    /// The simulators of `layout`, for the length of `body`.
    static func withSimulators<T: Sendable>(
        _ layout: Layout, _ body: ([String: PiHoleSimulator], UniFiSimulator, BellasReefSimulator) async throws -> T
    ) async throws -> T {
        var piHoles: [String: PiHoleSimulator] = [:]
        let unifi = UniFiSimulator()
        unifi.addDowntimeExamples()
        unifi.addGeneratedACLRules(count: layout.generatedRules, namePrefix: "downtime-bench")
        let reef = BellasReefSimulator(
            outlets: SimulatedOutlet.observed
                + (0..<layout.generatedOutlets).map { SimulatedOutlet(name: "Bench Outlet \($0 + 1)", ratedPowerW: 10) })
        func stopAll() async {
            for simulator in piHoles.values { await simulator.stop() }
            await unifi.stop()
            await reef.stop()
        }
        do {
            for id in layout.piHoleIDs {
                let simulator = PiHoleSimulator(hostName: "pi-\(id)")
                piHoles[id] = simulator
                try await simulator.start()
            }
            try await unifi.start()
            try await reef.start()
            let result = try await body(piHoles, unifi, reef)
            await stopAll()
            return result
        } catch {
            await stopAll()
            throw error
        }
    }
}
