import Synchronization

/// Lets a polling loop sleep until its next poll is due, or until something (a command that
/// started a pause, say) asks it to look again now.
public final class Wakeup: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        let deadline: ClockAlarm
    }

    private struct State {
        var pending = false
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
        /// Waits cancelled before their waiter was registered: it returns at once.
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Wakes the current waiter, or the next one if nobody waits right now. Its deadline's alarm
    /// goes at once, not when the woken task next runs: a clock then knows it is no longer
    /// waiting (what `ManualClock.advance` goes by).
    public func signal() {
        let waiters = state.withLock { state -> [Waiter] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { Self.end(waiter) }
    }

    /// Returns after `limit` on `clock`, on `signal()`, or when the task is cancelled, whichever
    /// comes first.
    public func wait(atMost limit: Duration, on clock: any BridgeClock = .system) async {
        await wait(until: clock.now + limit, on: clock)
    }

    /// Returns at `deadline` on `clock`, on `signal()`, or when the task is cancelled, whichever
    /// comes first.
    ///
    /// The deadline is an alarm that resumes this waiter, not a time limit cancelling a child task:
    /// polls, state publications and timers wait here after every command.
    public func wait(until deadline: ContinuousClock.Instant, on clock: any BridgeClock) async {
        let id: Int? = state.withLock { state in
            if state.pending {
                state.pending = false
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancellation may have come before this registration; then resume at once. The
                // alarm is set with the registration, so that a signal finds (and ends) both.
                let cancelledAlready = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = Waiter(continuation: continuation, deadline: clock.alarm(at: deadline, .wait) { self.resume(id) })
                    return false
                }
                if cancelledAlready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                if let waiter = state.waiters.removeValue(forKey: id) { return Optional(waiter) }
                state.cancelled.insert(id)
                return nil
            }
            waiter.map(Self.end)
        }
        // A cancellation that came after the waiter was resumed otherwise stays behind.
        _ = state.withLock { $0.cancelled.remove(id) }
    }

    /// Resumes waiter `id` if it still waits (its alarm fired).
    private func resume(_ id: Int) {
        state.withLock { $0.waiters.removeValue(forKey: id) }.map(Self.end)
    }

    private static func end(_ waiter: Waiter) {
        waiter.deadline.cancel()
        waiter.continuation.resume()
    }
}
