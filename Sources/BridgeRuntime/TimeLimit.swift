/// How an operation run under a time limit ended.
public enum TimeLimitedOutcome<T> {
    case finished(T)
    /// The limit came first: the operation was cancelled.
    case expired
    /// The calling task was cancelled while the operation ran (a shutdown).
    case cancelled
}

extension TimeLimitedOutcome: Sendable where T: Sendable {}

/// Runs `operation` in a child task and cancels it at `limit`; the operation must honour
/// cancellation (every upstream call here has its own timeout as a backstop). The caller's own
/// task is never cancelled by the limit.
///
/// The limit is a second child task that waits on a ``LoopTimer`` (``Wakeup``), not a
/// `Task.sleep`: on Linux a cancelled sleep keeps its dispatch timer until its deadline, and a
/// limit set for every command, and mostly beaten, kept thousands of them alive.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async -> T
) async -> TimeLimitedOutcome<T> {
    let first = await withTaskGroup(of: TimeLimitedOutcome<T>.self) { group in
        group.addTask { .finished(await operation()) }
        group.addTask {
            await Wakeup().wait(atMost: limit)
            return .expired
        }
        defer { group.cancelAll() }
        return await group.next() ?? .cancelled
    }
    // Cancelled from outside, the operation may still have returned first: it was cut short all the same.
    return Task.isCancelled ? .cancelled : first
}
