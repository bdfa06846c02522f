#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CoreMetrics

/// The bridge's metrics, made from the factory the process chose (a Prometheus registry behind
/// `/metrics` in `home2mqtt run`; nothing by default). Injected rather than bootstrapped
/// globally, so that several bridges in one test process keep their numbers apart.
///
/// Every name and label is defined here; `docs/topics.md` ("Metrics") lists them.
public struct BridgeMetrics: Sendable {
    let handles: MetricHandles
    var factory: any MetricsFactory { handles.factory }
    /// What each upstream's requests last did, whatever the factory: `bridge/health` reads it.
    let upstreamHealth = UpstreamHealth()

    public init(factory: any MetricsFactory = NOOPMetricsHandler.instance) {
        handles = MetricHandles(factory: factory)
    }

    /// The counters of the commands on `integration`'s topic `command` (relative to its root:
    /// `pause`, `main/pause`), made together: its queue keeps them by that topic.
    func commands(integration: String, command: String) -> CommandCounters {
        let dimensions = Self.command(integration, command)
        return CommandCounters(
            received: handles.counter("home2mqtt_commands_received_total", dimensions),
            succeeded: handles.counter("home2mqtt_commands_succeeded_total", dimensions),
            failed: handles.counter("home2mqtt_commands_failed_total", dimensions))
    }

    func brokerConnection(connected: Bool, reconnect: Bool) {
        Gauge(label: "home2mqtt_mqtt_connected", factory: factory).record(connected ? 1 : 0)
        if reconnect { handles.counter("home2mqtt_mqtt_reconnects_total", []).increment() }
    }

    /// The metrics of one upstream device (`pihole`, `main`).
    public func upstream(integration: String, instance: String) -> UpstreamMetrics {
        let key = UpstreamHealth.key(integration: integration, instance: instance)
        upstreamHealth.register(key)
        return UpstreamMetrics(
            handles: handles, dimensions: [("integration", integration), ("instance", instance)], health: upstreamHealth, key: key)
    }

    private static func command(_ integration: String, _ command: String) -> [(String, String)] {
        [("integration", integration), ("command", command)]
    }
}

/// The commands that arrived on one topic (retained ones are not counted), and their answers
/// `ok` and `error`.
struct CommandCounters: Sendable {
    let received: Counter
    let succeeded: Counter
    let failed: Counter
}

/// Requests, latency, logins and availability of one upstream device, and its last success and
/// error. Its handles are made once, with the upstream: every request records through them.
public struct UpstreamMetrics: Sendable {
    private let duration: Timer
    private let successes: Counter
    private let failures: Counter
    private let logins: Counter
    private let availability: Gauge
    private let health: UpstreamHealth
    private let key: String

    init(handles: MetricHandles, dimensions: [(String, String)], health: UpstreamHealth, key: String) {
        duration = handles.timer("home2mqtt_upstream_request_duration_seconds", dimensions)
        successes = handles.counter("home2mqtt_upstream_requests_total", dimensions + [("outcome", "success")])
        failures = handles.counter("home2mqtt_upstream_requests_total", dimensions + [("outcome", "failure")])
        logins = handles.counter("home2mqtt_upstream_logins_total", dimensions)
        availability = handles.gauge("home2mqtt_upstream_available", dimensions)
        self.health = health
        self.key = key
    }

    /// One API operation (a login it needed included) and whether it failed.
    public func recordRequest(duration: Duration, failed: Bool) {
        self.duration.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        (failed ? failures : successes).increment()
    }

    /// Runs one API operation (a login it needed included), recording its duration and outcome.
    /// Runs on the caller's executor (`nonisolated(nonsending)`), so an actor can measure its own work.
    public nonisolated(nonsending) func measure<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        do {
            let value = try await operation()
            recordRequest(duration: .now - started, failed: false)
            health.recordSuccess(key, at: Date())
            return value
        } catch {
            recordRequest(duration: .now - started, failed: true)
            // A shutdown's, not the upstream's.
            if !(error is CancellationError) { health.recordFailure(key, error, at: Date()) }
            throw error
        }
    }

    public func recordLogins(_ count: Int) {
        logins.increment(by: count)
    }

    public func recordAvailability(_ available: Bool) {
        availability.record(available ? 1 : 0)
    }
}
