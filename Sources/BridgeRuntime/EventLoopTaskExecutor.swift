import NIOCore

/// Runs Swift tasks on a NIO event loop (SE-0417 task executor preference): a task that sends
/// on a channel of `loop` and is resumed by its answer stays on that one thread, where on Swift's
/// default executor each crossing between the loop and a dispatch worker wakes another thread.
public final class EventLoopTaskExecutor: TaskExecutor {
    public let loop: any EventLoop

    public init(_ loop: any EventLoop) {
        self.loop = loop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
