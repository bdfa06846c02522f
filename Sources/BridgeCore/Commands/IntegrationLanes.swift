import Synchronization

/// One integration's turns: its commands (`Integration.lanes(for:)`) and its own actions (an
/// interlock's trip, a timer's restore: `IntegrationContext.inTurn`) wait in the same lanes, so
/// that one outlet, one scene, one Pi-hole has one line. The commands are handed to the queue
/// through `work`; an action runs in its caller's task. `work` ends once the lanes are closed and
/// nothing admitted is left unsettled.
final class IntegrationLanes: Sendable {
    typealias Ticket = CommandLanes<Waiter>.Ticket

    enum Waiter: Sendable {
        case command(QueuedCommand)
        /// An action, resumed when its turn comes.
        case action(CheckedContinuation<Ticket, Never>)
    }

    enum Work: Sendable {
        /// A command's turn came: run it.
        case start(Ticket, QueuedCommand)
        /// Stop what runs (the bridge is shutting down, or the integration is reloaded).
        case close
    }

    private struct State {
        var lanes = CommandLanes<Waiter>(capacity: CommandQueue.capacity)
        /// Commands entered and not yet answered, and actions not yet ended.
        var unsettled = 0
        var isClosed = false
        /// What a command is answered once the lanes are closed.
        var refusal = CommandQueue.shuttingDown
    }

    private let state = Mutex(State())
    let work: AsyncStream<Work>
    private let workContinuation: AsyncStream<Work>.Continuation

    /// The lanes the current task has its turn in, and whose: a command's own work may ask for a
    /// turn it already has (a command on an outlet, then the interlock's check of that outlet).
    @TaskLocal private static var held: (lanes: ObjectIdentifier, names: Set<String>)?

    init() {
        (work, workContinuation) = AsyncStream.makeStream()
    }

    /// Before a command is admitted, or answered at once: the answer it must get if the lanes are
    /// closed; otherwise the lanes count it until `settle()`.
    func enter() -> CommandError? {
        state.withLock { state in
            guard !state.isClosed else { return state.refusal }
            state.unsettled += 1
            return nil
        }
    }

    /// A command entered: hands it to `work` when its lanes are free, or lines it up.
    func admit(_ command: QueuedCommand) -> CommandLanes<Waiter>.Admission {
        state.withLock { state in
            let admission = state.lanes.admit(.command(command), lanes: command.prepared.lanes)
            if case .start(let ticket) = admission { workContinuation.yield(.start(ticket, command)) }
            return admission
        }
    }

    /// A command that ran: its place is free before `answer` (a client keeping `capacity`
    /// commands in flight sends the next as soon as it reads this answer, and that command can
    /// reach the bridge before the broker's acknowledgement of the answer does); what waited in
    /// its lanes starts after it, so a lane's answers go out in order.
    func finish(_ ticket: Ticket, answering answer: () -> Void) {
        let next = state.withLock { $0.lanes.finished(ticket) }
        answer()
        state.withLock { state in
            start(next)
            settle(&state)
        }
    }

    /// A command that entered was answered without running.
    func settle() {
        state.withLock { settle(&$0) }
    }

    private func settle(_ state: inout State) {
        state.unsettled -= 1
        if state.isClosed, state.unsettled == 0 { workContinuation.finish() }
    }

    private func start(_ next: [(Ticket, Waiter)]) {
        for (ticket, waiter) in next {
            switch waiter {
            case .command(let command): workContinuation.yield(.start(ticket, command))
            case .action(let turn): turn.resume(returning: ticket)
            }
        }
    }

    /// No command enters from now on; those running are stopped and those waiting refused, with
    /// `refusal`; `work` ends once every one is answered.
    func close(refusing refusal: CommandError) {
        state.withLock { state in
            state.isClosed = true
            state.refusal = refusal
            workContinuation.yield(.close)
            if state.unsettled == 0 { workContinuation.finish() }
        }
    }

    var refusal: CommandError { state.withLock(\.refusal) }

    /// Runs a command's work as the holder of its lanes.
    func running<T>(_ command: QueuedCommand, _ work: () async -> T) async -> T {
        await Self.$held.withValue((ObjectIdentifier(self), command.prepared.lanes), operation: work)
    }

    /// `body` once it has its turn in each of `names`: after what runs there and the actions
    /// before it, ahead of the commands waiting; never refused. A turn the task has is not waited
    /// for again. Not cancellable: a turn lasts a few requests, each with its own time limit.
    func inTurn<T: Sendable, Failure: Error>(
        of names: Set<String>, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let held = Self.held.flatMap { $0.lanes == ObjectIdentifier(self) ? $0.names : nil } ?? []
        let missing = names.subtracting(held)
        guard !missing.isEmpty else { return try await body() }
        let ticket = await withCheckedContinuation { (turn: CheckedContinuation<Ticket, Never>) in
            state.withLock { state in
                state.unsettled += 1
                if case .start(let ticket) = state.lanes.admit(.action(turn), lanes: missing, ahead: true) {
                    turn.resume(returning: ticket)
                }
            }
        }
        defer { finish(ticket) {} }
        let outcome = await Self.$held.withValue((ObjectIdentifier(self), held.union(missing))) { () async -> Result<T, Failure> in
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
