import Dispatch
import Synchronization

/// Lets a caller wait until a condition on the client's state holds, woken by the change that
/// makes it hold rather than polling for it: whoever changes what a waiter may be waiting for
/// (connected, refused, the thread ended, a publish acknowledged) calls `signal()`.
final class StateChanges: Sendable {
    private struct Waiters {
        /// Signals so far: a wait that began before the latest one looks at the state again at once.
        var generation = 0
        var nextID = 0
        var continuations: [Int: CheckedContinuation<Void, Never>] = [:]
        /// Waits begun whose continuation is not registered yet.
        var unregistered: Set<Int> = []
        /// Of those, the ones whose deadline or cancellation came already.
        var over: Set<Int> = []
    }

    private let waiters = Mutex(Waiters())

    /// Wakes every waiter, to look at the state again.
    func signal() {
        let woken = waiters.withLock { waiters in
            waiters.generation += 1
            defer { waiters.continuations = [:] }
            return Array(waiters.continuations.values)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns when `condition` holds (true), or at `deadline` or the task's cancellation (false
    /// unless it holds then).
    func wait(until deadline: ContinuousClock.Instant, for condition: () -> Bool) async -> Bool {
        while true {
            let seen = waiters.withLock(\.generation)
            if condition() { return true }
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
            await nextChange(after: seen, or: deadline)
        }
    }

    /// Suspends until the first `signal()` after the `seen`th, `deadline` or cancellation: a
    /// signal that came between the caller's look at the state and this wait is not lost.
    private func nextChange(after seen: Int, or deadline: ContinuousClock.Instant) async {
        let begun: Int? = waiters.withLock { waiters in
            guard waiters.generation == seen else { return nil }
            waiters.nextID += 1
            waiters.unregistered.insert(waiters.nextID)
            return waiters.nextID
        }
        guard let id = begun else { return }
        let remaining = deadline - ContinuousClock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(0, Int(remaining / .nanoseconds(1))))) { [self] in
            end(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isOver = waiters.withLock { waiters in
                    waiters.unregistered.remove(id)
                    if waiters.over.remove(id) != nil || waiters.generation != seen { return true }
                    waiters.continuations[id] = continuation
                    return false
                }
                if isOver { continuation.resume() }
            }
        } onCancel: {
            end(id)
        }
    }

    /// Ends wait `id` (its deadline, or its task cancelled), whether it is registered yet or not.
    private func end(_ id: Int) {
        let continuation = waiters.withLock { waiters in
            if let continuation = waiters.continuations.removeValue(forKey: id) { return Optional(continuation) }
            if waiters.unregistered.contains(id) { waiters.over.insert(id) }
            return nil
        }
        continuation?.resume()
    }
}
