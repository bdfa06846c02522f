import NIOCore
import NIOPosix

/// The one event loop that runs the bridge's tasks and holds its upstream connections.
///
/// A command's task sends its request on the loop that owns the connection and is resumed by its
/// answer on that same thread. On Swift's default executor the request crossed to NIO's loop and
/// the answer back to a dispatch worker, each crossing a wake-up of another thread; with a time
/// limit's sleeper on dispatch's timer thread as well, a command crossed about ten threads.
/// One loop is plenty for a home's appliances: a command costs the bridge a
/// fraction of a millisecond of CPU.
public enum BridgeEventLoop {
    public static let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()

    /// For `withTaskExecutorPreference`: a task and the child tasks it starts run on `loop`.
    public static let taskExecutor = EventLoopTaskExecutor(loop)
}
