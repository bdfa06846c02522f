import Dispatch
import Synchronization

/// A one-way "please stop" flag the network thread can sleep on, so back-off waits end as soon as
/// `disconnect()` is called. (A semaphore rather than Foundation's `NSCondition`, which would link
/// the full Foundation and ICU's data into the binary.) One thread waits: the network thread.
final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeUp.signal()
    }

    /// Sleeps up to `duration`; returns true if stop was requested (before or during the wait).
    func wait(for duration: Duration) -> Bool {
        guard !isStopped else { return true }
        _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(MQTTReconnectPolicy.seconds(duration) * 1e9)))
        return isStopped
    }
}
