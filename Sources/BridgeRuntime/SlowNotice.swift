import Synchronization

/// Runs `operation` to its end; if it is still running after `delay`, calls `notice` meanwhile
/// (once: an alarm on `clock`, removed when the operation ends first).
/// `notice` is never called after this returns.
public func withSlowNotice<T: Sendable>(
    after delay: Duration, on clock: any BridgeClock = .system, _ notice: @escaping @Sendable () -> Void, _ operation: () async -> T
) async -> T {
    let ended = Mutex(false)
    // Under the lock the end takes too, so that a notice already due cannot come after the end.
    let timer = clock.alarm(at: clock.now + delay, .limit) {
        ended.withLock { ended in
            if !ended { notice() }
        }
    }
    let result = await operation()
    ended.withLock { $0 = true }
    timer.cancel()
    return result
}
