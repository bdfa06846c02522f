import Foundation

/// A one-way "please stop" flag the network thread can sleep on, so back-off waits end as soon as
/// `disconnect()` is called.
///
/// `@unchecked Sendable`: `stopped` is only read or written while holding `condition`.
final class StopSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false

    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sleeps up to `duration`; returns true if stop was requested (before or during the wait).
    func wait(for duration: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: MQTTReconnectPolicy.seconds(duration))
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return stopped
    }
}
