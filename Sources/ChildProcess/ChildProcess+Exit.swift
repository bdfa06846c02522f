#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

extension ChildProcess {
    /// Waits for the child to exit and gives its exit code, holding no thread of Swift's
    /// concurrency pool meanwhile (one thread per core: a wait that blocked one stalled every task
    /// of the process). The kernel's wait runs on a dispatch queue of its own; a cancelled caller
    /// gets `CancellationError` at once and leaves that wait to end with the child.
    public func exitCode() async throws -> Int32 {
        if let code = reaped() { return code }
        let waiter = ExitWaiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiter.set(continuation)
                DispatchQueue(label: "home2mqtt.waitpid").async {
                    self.waitUntilExited()
                    waiter.resume(with: .success(()))
                }
            }
        } onCancel: {
            waiter.resume(with: .failure(CancellationError()))
        }
        return reaped() ?? -1
    }

    /// Sends `signal` and waits (blocking the calling thread) for the child to exit.
    public func terminate(signal: Int32 = SIGTERM) {
        guard isRunning else { return }
        kill(pid, signal)
        waitUntilExited()
        _ = reaped()
    }

    /// Blocks until the child has exited, without reaping it (`WNOWAIT`): `reaped()` stays the
    /// one place that reaps, so concurrent waits never race for the exit status.
    func waitUntilExited() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
    }
}

/// The continuation of `exitCode()`, resumed once: by the exit or by the caller's cancellation.
private final class ExitWaiter: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, any Error>?, early: Result<Void, any Error>?)>((nil, nil))

    func set(_ continuation: CheckedContinuation<Void, any Error>) {
        let early = state.withLock { state in
            if state.early == nil { state.continuation = continuation }
            return state.early
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<Void, any Error>) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            if state.continuation == nil, state.early == nil { state.early = result }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
