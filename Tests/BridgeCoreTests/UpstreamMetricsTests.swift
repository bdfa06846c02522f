import BridgeCore
import CoreMetrics
import Synchronization
import Testing

/// Every upstream request records a duration and an outcome, every poll an availability: through
/// handles made once, not asked of the metrics factory (Prometheus's registry: a lock, a name
/// check and a hash) each time.
@Suite struct UpstreamMetricsTests {
    @Test func anUpstreamAsksTheFactoryOncePerMetric() {
        let factory = CountingFactory()
        let upstream = BridgeMetrics(factory: factory).upstream(integration: "pihole", instance: "main")
        for round in 0..<100 {
            upstream.recordRequest(duration: .milliseconds(1), failed: round.isMultiple(of: 10))
            upstream.recordAvailability(!round.isMultiple(of: 10))
            upstream.recordLogins(1)
        }
        // Duration, successes, failures, logins, availability.
        #expect(factory.made == 5)
    }
}

/// NOOP handlers, and how many the bridge asked for.
private final class CountingFactory: MetricsFactory {
    private let count = Atomic(0)
    var made: Int { count.load(ordering: .relaxed) }
    private var noop: NOOPMetricsHandler { .instance }

    private func counted<Handler>(_ handler: Handler) -> Handler {
        count.add(1, ordering: .relaxed)
        return handler
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler { counted(noop) }
    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> FloatingPointCounterHandler { counted(noop) }
    func makeMeter(label: String, dimensions: [(String, String)]) -> MeterHandler { counted(noop) }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> RecorderHandler { counted(noop) }
    func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler { counted(noop) }
    func destroyCounter(_ handler: CounterHandler) {}
    func destroyMeter(_ handler: MeterHandler) {}
    func destroyFloatingPointCounter(_ handler: FloatingPointCounterHandler) {}
    func destroyRecorder(_ handler: RecorderHandler) {}
    func destroyTimer(_ handler: TimerHandler) {}
}
