import Synchronization

/// One integration while it runs: its polling and its command queue, stoppable on its own (a
/// reload that removes or changes it) or with the others (a graceful shutdown).
final class IntegrationRun: Sendable {
    let queue: CommandQueue
    private let stopRequested = Latch()
    /// What the commands it still holds when it stops are answered.
    private let refusal = Mutex(CommandQueue.shuttingDown)
    private let finished = Latch()

    init(queue: CommandQueue) {
        self.queue = queue
    }

    var integration: any Integration { queue.integration }
    var context: IntegrationContext { queue.context }
    var name: String { integration.name }

    /// Polls and carries out commands until `stop()`; then the polls end, and the commands it
    /// holds are answered before this returns. Stopped before it ran (the bridge began shutting
    /// down meanwhile), it only answers the commands it holds.
    func run() async {
        let integration = integration, context = context
        await withDiscardingTaskGroup { commands in
            commands.addTask { await self.queue.run() }
            if !stopRequested.isOpen {
                await withDiscardingTaskGroup { polling in
                    polling.addTask { await integration.run(context: context) }
                    await stopRequested.wait()
                    polling.cancelAll()
                }
            }
            queue.close(refusing: refusal.withLock { $0 })
        }
        finished.open()
    }

    func stop() {
        stopRequested.open()
    }

    /// Stops it and waits until `run` has returned; the commands it holds are answered with
    /// `refusal`. Only for a run that was started.
    func stopAndWait(refusing refusal: CommandError) async {
        self.refusal.withLock { $0 = refusal }
        stop()
        await finished.wait()
    }
}
