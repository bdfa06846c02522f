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
/// One child task, which the limit (an alarm on `clock`, cancelled when the operation beats it)
/// cancels through its own handle: no second task sleeping beside it, and no `Task.sleep`, whose
/// dispatch timer on Linux outlives its cancellation until its deadline.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration, on clock: any BridgeClock = .system, _ operation: @escaping @Sendable () async -> T
) async -> TimeLimitedOutcome<T> {
    await withTaskGroup(of: TimeLimitedOutcome<T>.self) { group in
        group.addTask {
            await withUnsafeCurrentTask { task -> TimeLimitedOutcome<T> in
                guard let task else { return .finished(await operation()) }
                let run = LimitedRun(task)
                let expiry = clock.alarm(at: clock.now + limit, .limit) { run.expire() }
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
        return await group.next() ?? .cancelled
    }
}

/// The child task a time limit may cancel, for as long as it runs the operation.
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

    /// How the operation ended: on its own, or cancelled (by the limit, or from elsewhere: the
    /// caller's cancellation reaches its child) before it returned.
    func finish() -> End {
        lock.withLock { state in
            state.isFinished = true
            if state.hasExpired { return .expired }
            return task.isCancelled ? .cancelled : .ran
        }
    }
}
