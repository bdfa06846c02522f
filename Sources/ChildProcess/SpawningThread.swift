#if canImport(Glibc)
import Glibc
import Dispatch
import Synchronization

/// One thread, alive as long as the process, on which every child is spawned.
///
/// Linux sends a child its parent-death signal (`PR_SET_PDEATHSIG`) when the *thread* that
/// spawned it ends, not the process. Swift's concurrency pool ends threads that stay idle, so a
/// child spawned from a task could be signalled in the middle of a test; spawned from here, it is
/// signalled only when the whole process dies.
final class SpawningThread: Sendable {
    static let shared = SpawningThread()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let jobArrived = DispatchSemaphore(value: 0)

    private init() {
        // The thread holds the only other reference for ever: `shared` is never released.
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<SpawningThread>.fromOpaque(context!).takeUnretainedValue().serve()
        }, context)
        precondition(result == 0, "pthread_create failed: \(String(cString: strerror(result)))")
        pthread_detach(thread)
    }

    /// Runs `body` on the spawning thread and waits for it (a spawn takes about a millisecond).
    func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Value?>(nil)
        jobs.withLock {
            $0.append {
                result.withLock { $0 = body() }
                done.signal()
            }
        }
        jobArrived.signal()
        done.wait()
        return result.withLock { $0! }
    }

    private func serve() -> Never {
        while true {
            jobArrived.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job()
        }
    }
}
#endif
