import Synchronization

/// Lets a polling loop sleep until its next poll is due, or until something (a command that
/// started a pause, say) asks it to look again now.
public final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Wakes the current waiter, or the next one if nobody waits right now.
    public func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after `limit`, on `signal()`, or when the task is cancelled, whichever comes first.
    public func wait(atMost limit: Duration) async {
        _ = await withTimeLimit(limit) { await self.nextSignal() }
    }

    private func nextSignal() async {
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
                // Cancellation may have come before this registration; then resume at once.
                let cancelledAlready = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return true }
                    state.waiters[id] = continuation
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
            waiter?.resume()
        }
    }
}
