import NIOCore
import NIOPosix
import Synchronization

/// Runs `operation`, giving up after `limit`. The operation is cancelled at the limit and
/// must honour cancellation (every upstream call here has its own timeout as a backstop).
///
/// The limit is a timer on the current event loop (`BridgeEventLoop.loop` where the bridge's tasks
/// run), removed when the operation beats it. Not a sleeping task: on Linux a cancelled
/// `Task.sleep` keeps its dispatch timer until its deadline, and a limit set for every command
/// and every request, and mostly beaten, kept thousands of them alive (issue 10); each sleep also
/// woke dispatch's timer thread.
/// - Returns: the operation's result, or `nil` when the limit came first or the task was
///   cancelled while the operation ran.
public func withTimeLimit<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? BridgeEventLoop.loop
    return await withTaskGroup(of: T?.self) { group in
        group.addTask {
            await withUnsafeCurrentTask { task -> T? in
                guard let task else { return await operation() }
                let run = LimitedRun(task)
                let expiry = loop.scheduleTask(in: limit.timeAmount) { run.expire() }
                let result = await operation()
                let interrupted = run.finish()
                expiry.cancel()
                return interrupted ? nil : result
            }
        }
        return await group.next() ?? nil
    }
}

/// The task a time limit may cancel, for as long as it runs the operation.
///
/// `@unchecked Sendable`: `UnsafeCurrentTask` may only be used while its task runs. The limit
/// cancels it only under `lock` and only before `finish()`, which the task calls, under the same
/// lock, before it goes on.
private final class LimitedRun: @unchecked Sendable {
    private let task: UnsafeCurrentTask
    private let lock = Mutex(false)  // finished

    init(_ task: UnsafeCurrentTask) {
        self.task = task
    }

    func expire() {
        lock.withLock { finished in
            if !finished { task.cancel() }
        }
    }

    /// Whether the operation was cancelled (by the limit, or with its parent) before it returned.
    func finish() -> Bool {
        lock.withLock { finished in
            finished = true
            return task.isCancelled
        }
    }
}
