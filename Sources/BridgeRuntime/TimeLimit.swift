import Synchronization

/// How an operation run under a time limit ended.
public enum TimeLimitedOutcome<T> {
    case finished(T)
    /// The limit came first: the operation was cancelled.
    case expired
    /// The calling task was cancelled while the operation ran (a shutdown).
    case cancelled
}

extension TimeLimitedOutcome: Sendable where T: Sendable {}

/// Runs `operation` in a child task and cancels that child at `limit`; the operation must honour
/// cancellation (every upstream call here has its own timeout as a backstop). The caller's own
/// task is never cancelled by the limit.
///
/// One child task; the caller waits for the first of its end and the limit (an alarm on `clock`,
/// cancelled when the operation beats it), and cancels the child if the limit came first. No
/// second task sleeping beside it, and no `Task.sleep`, whose dispatch timer on Linux outlives
/// its cancellation until its deadline.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration, on clock: any BridgeClock = .system, _ operation: @escaping @Sendable () async -> T
) async -> TimeLimitedOutcome<T> {
    await withTaskGroup(of: T.self) { group in
        let race = LimitRace()
        group.addTask {
            let result = await operation()
            race.end(byTheLimit: false)
            return result
        }
        let expiry = clock.alarm(at: clock.now + limit, .limit) { race.end(byTheLimit: true) }
        let expired = await race.firstEnd()
        if expired { group.cancelAll() } else { expiry.cancel() }
        // The operation honours cancellation: it ends soon after the limit.
        guard let result = await group.next() else { return .cancelled }
        if expired { return .expired }
        return Task.isCancelled ? .cancelled : .finished(result)
    }
}

/// The operation's end and the limit, whichever comes first: the first to call `end` decides, and
/// wakes the caller waiting in `firstEnd`.
private final class LimitRace: Sendable {
    private enum State {
        case running
        case waiting(UnsafeContinuation<Void, Never>)
        case ended(byTheLimit: Bool)
    }

    private let state = Mutex(State.running)

    func end(byTheLimit: Bool) {
        let waiter: UnsafeContinuation<Void, Never>? = state.withLock { state in
            switch state {
            case .running:
                state = .ended(byTheLimit: byTheLimit)
                return nil
            case .waiting(let waiter):
                state = .ended(byTheLimit: byTheLimit)
                return waiter
            case .ended:
                return nil
            }
        }
        waiter?.resume()
    }

    /// - Returns: whether the limit came first.
    func firstEnd() async -> Bool {
        await withUnsafeContinuation { waiter in
            let hasEnded = state.withLock { state in
                guard case .running = state else { return true }
                state = .waiting(waiter)
                return false
            }
            if hasEnded { waiter.resume() }
        }
        return state.withLock { state in
            if case .ended(let byTheLimit) = state { byTheLimit } else { false }
        }
    }
}
