import Synchronization

/// Runs `operation`, giving up after `limit`. The operation is cancelled at the limit and
/// must honour cancellation (every upstream call here has its own timeout as a backstop).
///
/// The operation runs in a child task, so the limit's cancellation ends with it and the caller
/// goes on uncancelled. A caller that can give its task up instead saves the child: see
/// ``withTimeLimitCancellingThisTask(_:_:)``.
/// - Returns: the operation's result, or `nil` when the limit came first or the task was
///   cancelled while the operation ran.
public func withTimeLimit<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask {
            if case .finished(let result) = await withTimeLimitCancellingThisTask(limit, operation) { return result }
            return nil
        }
        return await group.next() ?? nil
    }
}

/// How an operation run under a time limit ended.
public enum TimeLimitedOutcome<T> {
    case finished(T)
    /// The limit came first: the operation was cancelled.
    case expired
    /// The task was cancelled from elsewhere while the operation ran (a shutdown).
    case cancelled
}

extension TimeLimitedOutcome: Sendable where T: Sendable {}

/// Runs `operation` in the calling task and cancels that task at `limit` if the operation has
/// not returned by then. A task's cancellation cannot be undone: after `.expired` the calling
/// task stays cancelled, and whatever it has left to do must go to a fresh task. What it saves
/// against ``withTimeLimit(_:_:)`` is a child task per call: the bridge's command queue runs
/// every command this way.
///
/// The limit is a ``LoopTimer``, cancelled when the operation beats it.
public func withTimeLimitCancellingThisTask<T>(_ limit: Duration, _ operation: () async -> T) async -> TimeLimitedOutcome<T> {
    await withUnsafeCurrentTask { task -> TimeLimitedOutcome<T> in
        guard let task else { return .finished(await operation()) }
        let run = LimitedRun(task)
        let expiry = LoopTimer(in: limit) { run.expire() }
        let result = await operation()
        let end = run.finish()
        expiry.cancel()
        switch end {
        case .ran: return .finished(result)
        case .expired: return .expired
        case .cancelled: return .cancelled
        }
    }
}

/// The task a time limit may cancel, for as long as it runs the operation.
///
/// `@unchecked Sendable`: `UnsafeCurrentTask` may only be used while its task runs. The limit
/// cancels it only under `lock` and only before `finish()`, which the task calls, under the same
/// lock, before it goes on.
private final class LimitedRun: @unchecked Sendable {
    enum End { case ran, expired, cancelled }
    private struct State {
        var isFinished = false
        var hasExpired = false
    }

    private let task: UnsafeCurrentTask
    private let lock = Mutex(State())

    init(_ task: UnsafeCurrentTask) {
        self.task = task
    }

    func expire() {
        lock.withLock { state in
            guard !state.isFinished else { return }
            state.hasExpired = true
            task.cancel()
        }
    }

    /// How the operation ended: on its own, or cancelled (by the limit, or from elsewhere)
    /// before it returned.
    func finish() -> End {
        lock.withLock { state in
            state.isFinished = true
            if state.hasExpired { return .expired }
            return task.isCancelled ? .cancelled : .ran
        }
    }
}
