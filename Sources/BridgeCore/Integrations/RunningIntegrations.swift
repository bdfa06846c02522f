import Synchronization

/// The integrations the bridge runs now, in configuration order: the dispatcher finds each
/// command's queue here, and a reload takes some out and puts others in. `launches` hands the
/// bridge each run to start, until the shutdown closes it.
final class RunningIntegrations: Sendable {
    private struct State {
        var runs: [IntegrationRun] = []
        var isClosed = false
    }

    private let state = Mutex(State())
    let launches: AsyncStream<IntegrationRun>
    private let launcher: AsyncStream<IntegrationRun>.Continuation

    init() {
        (launches, launcher) = AsyncStream.makeStream()
    }

    var all: [IntegrationRun] { state.withLock { $0.runs } }

    func run(named name: String) -> IntegrationRun? {
        state.withLock { $0.runs.first { $0.name == name } }
    }

    func queue(accepting topic: String) -> CommandQueue? {
        state.withLock { $0.runs.first { $0.queue.accepts(topic) }?.queue }
    }

    /// Routes the integration's commands to `run` from now on (in place of the run of the same
    /// name, if any), before it is started: commands wait in its queue until `launch`.
    func insert(_ run: IntegrationRun) {
        state.withLock { state in
            if let index = state.runs.firstIndex(where: { $0.name == run.name }) {
                state.runs[index] = run
            } else {
                state.runs.append(run)
            }
        }
    }

    func remove(_ run: IntegrationRun) {
        state.withLock { $0.runs.removeAll { $0 === run } }
    }

    /// Starts `run`. - Returns: `false` once the bridge is shutting down: it was not started.
    func launch(_ run: IntegrationRun) -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            launcher.yield(run)
            return true
        }
    }

    /// The graceful shutdown: every run stops, and nothing more is launched.
    func stopAll() {
        let runs = state.withLock { state in
            state.isClosed = true
            launcher.finish()
            return state.runs
        }
        for run in runs { run.stop() }
    }
}
