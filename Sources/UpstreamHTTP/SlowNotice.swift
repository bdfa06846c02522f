import NIOCore
import NIOPosix
import Synchronization

/// Runs `operation` to its end; if it is still running after `delay`, calls `notice` meanwhile
/// (once, on the current event loop). `notice` is never called after this returns.
///
/// The delay is a timer on the event loop, removed when the operation ends first; not a sleeping
/// task beside it: on Linux a cancelled `Task.sleep` keeps its dispatch timer until its deadline,
/// and wakes dispatch's threads when that runs out (docs/benchmarks.md).
public func withSlowNotice<T: Sendable>(
    after delay: Duration, _ notice: @escaping @Sendable () -> Void, _ operation: () async -> T
) async -> T {
    let ended = Mutex(false)
    let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? BridgeEventLoop.loop
    // Under the lock the end takes too, so that a notice already due cannot come after the end.
    let timer = loop.scheduleTask(in: delay.timeAmount) {
        ended.withLock { ended in
            if !ended { notice() }
        }
    }
    let result = await operation()
    ended.withLock { $0 = true }
    timer.cancel()
    return result
}
