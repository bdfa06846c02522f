import NIOCore
import NIOPosix

/// Runs `fire` once after a delay, on the current event loop (`BridgeEventLoop.loop` where the
/// bridge's tasks run), unless cancelled first. How ``SystemClock`` sets its alarms.
///
/// A scheduled callback: no promise and future made per timer as with `scheduleTask`, and no
/// sleeping task. On Linux a cancelled `Task.sleep` keeps its dispatch timer until its deadline,
/// and a limit set for every command and every request, and mostly beaten, kept thousands of
/// them alive; each sleep also woke dispatch's timer thread.
public struct LoopTimer: Sendable {
    private let scheduled: NIOScheduledCallback?

    public init(in delay: Duration, _ fire: @escaping @Sendable () -> Void) {
        let loop = MultiThreadedEventLoopGroup.currentEventLoop ?? BridgeEventLoop.loop
        // Scheduling fails only on a loop that has shut down (the bridge's never does).
        scheduled = try? loop.scheduleCallback(in: delay.timeAmount, handler: Firing(fire: fire))
    }

    /// Without effect once it has fired.
    public func cancel() {
        scheduled?.cancel()
    }

    private struct Firing: NIOScheduledCallbackHandler, Sendable {
        let fire: @Sendable () -> Void

        func handleScheduledCallback(eventLoop: some EventLoop) {
            fire()
        }
    }
}
