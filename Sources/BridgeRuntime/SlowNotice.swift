import Synchronization

/// Runs `operation` to its end; if it is still running after `delay`, calls `notice` meanwhile
/// (once, on the current event loop: a ``LoopTimer``, removed when the operation ends first).
/// `notice` is never called after this returns.
public func withSlowNotice<T: Sendable>(
    after delay: Duration, _ notice: @escaping @Sendable () -> Void, _ operation: () async -> T
) async -> T {
    let ended = Mutex(false)
    // Under the lock the end takes too, so that a notice already due cannot come after the end.
    let timer = LoopTimer(in: delay) {
        ended.withLock { ended in
            if !ended { notice() }
        }
    }
    let result = await operation()
    ended.withLock { $0 = true }
    timer.cancel()
    return result
}
