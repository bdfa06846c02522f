#if canImport(Glibc)
import Glibc

/// Runs `body` on a thread of its own, for a loop that blocks for the client's whole life. A
/// plain pthread: Foundation's `Thread` would link the full Foundation, and ICU's data, into the
/// binary; a dispatch queue would hold one of libdispatch's pool workers instead, and a test
/// run has hundreds of clients. (Unnamed: Glibc's module leaves `pthread_setname_np` out.)
func startThread(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    guard result == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        preconditionFailure("pthread_create failed: \(String(cString: strerror(result)))")
    }
    pthread_detach(thread)
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }
}
#else
import Foundation

func startThread(_ body: @escaping @Sendable () -> Void) {
    Thread { body() }.start()
}
#endif
