import ServiceLifecycle

/// A family of simulated appliances the demo starts, so the bridge has something real to talk to.
protocol DemoUpstream: Sendable {
    /// Starts the simulators on loopback, on free ports.
    func start() async throws -> any RunningDemoUpstream
}

/// Simulators that are up: how the bridge reaches them, what to tell the user, and a `Service`
/// whose `run()` keeps them up until the demo shuts down.
protocol RunningDemoUpstream: Service {
    /// The bridge configuration section that points at the simulators, top-level key included.
    var configurationYAML: String { get }
    /// Banner lines: where the simulators are, and commands worth trying on `broker`.
    func banner(broker: DemoBrokerAddress) -> [String]
    /// Stops the simulators. Idempotent; also for a demo that fails before its services run.
    func stop() async
}

extension RunningDemoUpstream {
    func run() async throws {
        // Cancellation (a failed sibling) ends the wait too; either way the simulators stop.
        try? await gracefulShutdown()
        await stop()
    }
}

/// Everything `home2mqtt-demo` simulates: a line each.
let demoUpstreams: [any DemoUpstream] = [
    PiHoleDemoUpstream(ids: ["main", "backup"]),
    UniFiDemoUpstream(),
    ReefDemoUpstream(),
]
