import BridgeRuntime
import NIOCore
import NIOPosix

/// The thread every simulator of a process serves on: its connections and its handlers' tasks.
///
/// Apart from the bridge's loop (`BridgeEventLoop`), as an appliance is apart from the bridge,
/// so that a test or benchmark does not measure the two sharing a thread. And the handlers run on
/// the loop that read their request: on Swift's default executor each request crossed to a
/// dispatch worker and its response back, two thread wake-ups that cost the benchmark's
/// process more CPU than the simulators' own work.
enum SimulatorEventLoop {
    static let loop: any EventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
    static let taskExecutor = EventLoopTaskExecutor(loop)
}
