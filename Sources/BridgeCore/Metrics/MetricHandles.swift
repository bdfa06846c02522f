import CoreMetrics
import Synchronization

/// Counters and timers by name and labels, each made once. `Counter(label:dimensions:factory:)`
/// asks the factory every time, and Prometheus's registry then takes its lock, checks the name
/// and hashes it with its labels: for every command and every upstream request (issue 10's
/// profile: 2 % of the bridge's CPU). The labels are bounded (integrations, their command topics,
/// their instances), and so is this.
final class MetricHandles: Sendable {
    private struct Key: Hashable {
        var label: String
        var dimensions: [String]
    }

    let factory: any MetricsFactory
    private let counters = Mutex<[Key: Counter]>([:])
    private let timers = Mutex<[Key: Timer]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter {
        let key = Key(label: label, dimensions: dimensions.flatMap { [$0.0, $0.1] })
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: label, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }

    func timer(_ label: String, _ dimensions: [(String, String)]) -> Timer {
        let key = Key(label: label, dimensions: dimensions.flatMap { [$0.0, $0.1] })
        return timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = Timer(label: label, dimensions: dimensions, factory: factory)
            timers[key] = timer
            return timer
        }
    }
}
