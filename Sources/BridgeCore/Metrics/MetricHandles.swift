import CoreMetrics
import Synchronization

/// Counters, timers and gauges by name and labels, each made once. `Counter(label:dimensions:factory:)`
/// asks the factory every time, and Prometheus's registry then takes its lock, checks the name
/// and hashes it with its labels: for every command and every upstream request. The labels are bounded (integrations, their command topics,
/// their instances), and so is this.
final class MetricHandles: Sendable {
    private struct Key: Hashable {
        var kind: ObjectIdentifier
        var label: String
        var dimensions: [String]
    }

    let factory: any MetricsFactory
    private let made = Mutex<[Key: any Sendable]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        handle(label, dimensions) { Counter(label: label, dimensions: dimensions, factory: factory) }
    }

    func timer(_ label: String, _ dimensions: [(String, String)]) -> Timer {
        handle(label, dimensions) { Timer(label: label, dimensions: dimensions, factory: factory) }
    }

    func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge {
        handle(label, dimensions) { Gauge(label: label, dimensions: dimensions, factory: factory) }
    }

    private func handle<Handle: Sendable>(_ label: String, _ dimensions: [(String, String)], make: () -> Handle) -> Handle {
        let key = Key(kind: ObjectIdentifier(Handle.self), label: label, dimensions: dimensions.flatMap { [$0.0, $0.1] })
        return made.withLock { made in
            if let existing = made[key] as? Handle { return existing }
            let handle = make()
            made[key] = handle
            return handle
        }
    }
}
