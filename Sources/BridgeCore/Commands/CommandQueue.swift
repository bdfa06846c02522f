import Logging
import MQTT
import Synchronization

/// One integration's commands, each with a time limit, each answered exactly once. Commands
/// sharing a lane (`Integration.lanes(for:)`) run one at a time in arrival order; commands with
/// no lane in common run at once, so a slow upstream object never holds back another.
final class CommandQueue: Sendable {
    /// `expiresAt`: when the command's MQTT 5 message expiry (the remaining interval the broker
    /// gave at delivery) runs out, if it has one.
    /// `arrival`: who waits for its answer, and since when.
    private typealias Pending = (
        transaction: JSONValue?, prepared: PreparedCommand, message: MQTTMessage, expiresAt: ContinuousClock.Instant?,
        arrival: CommandArrival
    )
    private typealias Start = (ticket: CommandLanes<Pending>.Ticket, pending: Pending)

    let integration: any Integration
    let context: IntegrationContext
    let responder: CommandResponder
    let timeLimit: Duration
    let metrics: BridgeMetrics
    private let retainedCommands = RetainedCommandLog()
    private let countersByTopic = Mutex<[String: CommandCounters]>([:])
    /// `work` is fed under this lock, and closed under it: whatever was fed before the close is
    /// read by `run`, whatever comes after is answered by whoever brought it.
    private let intake: Mutex<Intake>
    private struct Intake {
        var lanes: CommandLanes<Pending>
        var isClosed = false
        /// What a command is answered once the queue is closed.
        var refusal = CommandQueue.shuttingDown
    }
    /// What `run` is to do: start a command whose lanes were free, answer one that cannot run, or
    /// stop what runs (the bridge is shutting down).
    private enum Work: Sendable {
        case start(Start)
        case answer(MQTTMessage, CommandResponse, CommandArrival)
        case close
    }
    private let work: AsyncStream<Work>
    private let workContinuation: AsyncStream<Work>.Continuation

    /// Commands running or waiting beyond this many are refused at once rather than queued without end.
    static let capacity = 64

    static let shuttingDown = CommandError("the bridge is shutting down", code: .notReady)
    static let expired = CommandError("not carried out: its message expiry passed while it waited", code: .timeout)

    init(
        integration: any Integration, context: IntegrationContext, responder: CommandResponder, timeLimit: Duration,
        metrics: BridgeMetrics
    ) {
        self.integration = integration
        self.context = context
        self.responder = responder
        self.timeLimit = timeLimit
        self.metrics = metrics
        filters = integration.commandFilters.map { context.topics.topic($0) }
        everydayFilters = ((integration as? any EverydayCommands)?.everydayCommands ?? []).map { context.topics.topic($0) }
        intake = Mutex(Intake(lanes: CommandLanes(capacity: Self.capacity)))
        (work, workContinuation) = AsyncStream.makeStream()
    }

    /// The integration's command filters under the bridge's base topic, made once: every message
    /// the bridge receives is matched against them.
    let filters: [String]
    private let everydayFilters: [String]

    func accepts(_ topic: String) -> Bool {
        // Every filter lies under the integration's root: another integration's command is turned
        // away by one comparison rather than by each of its filters.
        topic.utf8.starts(with: context.topics.root.utf8) && filters.contains { TopicFilter.matches($0, topic: topic) }
    }

    /// Whether `topic`, one of this queue's, is one of the integration's `EverydayCommands`.
    func acceptsEveryday(_ topic: String) -> Bool {
        everydayFilters.contains { TopicFilter.matches($0, topic: topic) }
    }

    /// Parses and queues a message, or has it answered when it cannot be queued: by `run` while
    /// the queue is open, here once it is closed ("shutting down").
    func enqueue(_ message: MQTTMessage, from sender: CommandSender = .mqtt) {
        guard let parsed = CommandRequest.parse(message, below: context.topics.root, answeredPrivately: sender.answersPrivately) else {
            retainedCommands.ignore(message, logger: context.logger)
            return
        }
        counters(of: message).received.increment()
        let prepared = parsed.flatMap { command in
            do throws(CommandError) {
                return .success(try integration.prepare(command))
            } catch {
                return .failure(error)
            }
        }
        let transaction = (try? parsed.get())?.transaction
        let expiresAt = message.properties.messageExpiryInterval.map { ContinuousClock.now + .seconds(Int64($0)) }
        admit(message, prepared.map { ($0, expiresAt) }, transaction: transaction, arrival: arrival(from: sender))
    }

    /// Carries out `prepared` as a command of this integration's, in its lanes and with its time
    /// limit, and returns the answer an MQTT client would get. `topic` names it in the log and the
    /// metrics: a scene's part (`scene/<key>`), say.
    func perform(_ prepared: PreparedCommand, topic: String) async -> CommandResponse {
        let message = MQTTMessage(topic: context.topics.topic(topic), payload: [], qos: .atLeastOnce, retain: false)
        counters(of: message).received.increment()
        return await withCheckedContinuation { caller in
            admit(message, .success((prepared, nil)), transaction: nil, arrival: arrival(from: .bridge(caller)))
        }
    }

    private func arrival(from sender: CommandSender) -> CommandArrival {
        CommandArrival(sender: sender, at: responder.feed == nil ? nil : .now)
    }

    private func admit(
        _ message: MQTTMessage, _ prepared: Result<(PreparedCommand, ContinuousClock.Instant?), CommandError>, transaction: JSONValue?,
        arrival: CommandArrival
    ) {
        let refusedAfterClose: CommandResponse? = intake.withLock { intake in
            guard !intake.isClosed else {
                return CommandResponse(result: .failure(intake.refusal), transaction: transaction)
            }
            switch prepared {
            case .failure(let error):
                logFailure(of: message, error)
                workContinuation.yield(.answer(message, CommandResponse(result: .failure(error), transaction: transaction), arrival))
            case .success(let (prepared, expiresAt)):
                let pending: Pending = (transaction, prepared, message, expiresAt, arrival)
                switch intake.lanes.admit(pending, lanes: prepared.lanes) {
                case .start(let ticket):
                    workContinuation.yield(.start((ticket, pending)))
                case .queued:
                    break
                case .refused:
                    let busy = CommandError("busy: \(Self.capacity) commands are already waiting for \(integration.name)", code: .busy)
                    workContinuation.yield(.answer(message, CommandResponse(result: .failure(busy), transaction: transaction), arrival))
                }
            }
            return nil
        }
        if let refusedAfterClose { answer(message, refusedAfterClose, to: arrival) }
    }

    /// The bridge is shutting down (or the integration is reloaded): the commands running now are
    /// stopped and those waiting are not started, all answered with `refusal`, and `run` returns
    /// once all are answered.
    func close(refusing refusal: CommandError = CommandQueue.shuttingDown) {
        intake.withLock { intake in
            intake.isClosed = true
            intake.refusal = refusal
            workContinuation.yield(.close)
            workContinuation.finish()
        }
    }

    private func answer(_ message: MQTTMessage, _ response: CommandResponse, to arrival: CommandArrival) {
        let answered = counters(of: message)
        if case .success = response.result { answered.succeeded.increment() } else { answered.failed.increment() }
        responder.answer(message, with: response, to: arrival)
    }

    /// The counters of `message`'s topic, made at its first command and then found by the topic
    /// below the integration's root (`pause`, `main/pause`) alone: `MetricHandles` hashes a
    /// name and all its labels, twice a command. A bounded key, since
    /// only topics matching the integration's exact command filters arrive here.
    private func counters(of message: MQTTMessage) -> CommandCounters {
        let command = String(message.topic.dropFirst(context.topics.root.count + 1))
        return countersByTopic.withLock { counters in
            if let made = counters[command] { return made }
            let made = metrics.commands(integration: integration.name, command: command)
            counters[command] = made
            return made
        }
    }

    /// Until `close()`, and then until every command it was handed is answered. Its reading of
    /// `work` is never cancelled: a cancelled read would drop what waits in the stream unanswered.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await item in work {
                switch item {
                case .start(let first):
                    group.addTask { await self.runInTurn(startingWith: first) }
                case .answer(let message, let response, let arrival):
                    answer(message, response, to: arrival)
                case .close:
                    // What runs is cancelled; what starts from here on starts cancelled and is refused.
                    group.cancelAll()
                }
            }
        }
    }

    /// Carries out `first`, then the first command its end lets start, and so on; any other
    /// command an end lets start runs in a task of its own, or here once `work` is closed (and
    /// this task with it: refused).
    private func runInTurn(startingWith first: Start) async {
        var next: [Start] = [first]
        while !next.isEmpty {
            let (ticket, pending) = next.removeFirst()
            let response = await outcome(of: pending)
            // Its place is free before its answer goes out: a client keeping `capacity` commands
            // in flight sends the next as soon as it reads this answer, and that command can reach
            // the bridge before the broker's acknowledgement of the answer does.
            let starting = intake.withLock { $0.lanes.finished(ticket) }
            next += starting.dropFirst().filter { !handedOver($0) }
            // The next command of its lane starts once this answer is queued, not acknowledged:
            // a lane's answers still go out in order (the client sends in the order queued), and
            // the lane does not wait a broker round trip per command.
            answer(pending.message, response, to: pending.arrival)
            if let first = starting.first { next.insert(first, at: 0) }
        }
    }

    /// Whether `start` went to `work`, to run in a task of its own: not once `work` is closed.
    private func handedOver(_ start: Start) -> Bool {
        if case .terminated = workContinuation.yield(.start(start)) { return false }
        return true
    }

    /// Runs a command whose turn has come, unless the bridge is shutting down or the command's
    /// message expiry passed while it waited: then it is refused, not started upstream.
    private func outcome(of pending: Pending) async -> CommandResponse {
        let (transaction, prepared, message, expiresAt, _) = pending
        if Task.isCancelled {
            return CommandResponse(result: .failure(intake.withLock(\.refusal)), transaction: transaction)
        }
        if let expiresAt, expiresAt <= .now {
            context.logger.warning("command dropped: its message expiry passed while it waited", metadata: [
                "topic": "\(message.topic)", "expiry": "\(message.properties.messageExpiryInterval ?? 0) s",
            ])
            return CommandResponse(result: .failure(Self.expired), transaction: transaction)
        }
        let context = context
        let limit = prepared.timeLimit ?? timeLimit
        let result: Result<JSONValue?, CommandError> = switch await withTimeLimit(limit, on: context.clock, { await prepared.run(context) }) {
        case .finished(let result): result
        case .expired: .failure(CommandError("timed out after \(limit)", code: .timeout))
        // Cancelled at shutdown, the time limit gives up at once: say why, not "timed out".
        case .cancelled: .failure(intake.withLock(\.refusal))
        }
        if case .failure(let error) = result { logFailure(of: message, error) }
        return CommandResponse(result: result, transaction: transaction)
    }

    private func logFailure(of message: MQTTMessage, _ error: CommandError) {
        context.logger.warning("command failed", metadata: ["topic": "\(message.topic)", "error": "\(error)"])
    }
}

/// Sends each answer where its command's sender waits for it, and tells the observer, if any.
struct CommandResponder: Sendable {
    let client: MQTTClient
    let logger: Logger
    let feed: ObserverFeed?

    /// An MQTT command's answer is queued (QoS 1) without waiting for the broker's acknowledgement;
    /// a failure is logged when it comes. The bridge's shutdown still waits for the
    /// acknowledgements: its `offline` goes out after every answer queued, and it awaits that one's.
    func answer(_ command: MQTTMessage, with response: CommandResponse, to arrival: CommandArrival) {
        switch arrival.sender {
        case .bridge(let caller):
            caller.resume(returning: response)
        case .inProcess(let caller):
            feed?.answered(command, response, arrivedAt: arrival.at, sentInProcess: true)
            caller.resume(returning: response)
        case .mqtt:
            feed?.answered(command, response, arrivedAt: arrival.at, sentInProcess: false)
            publish(response, for: command)
        }
    }

    private func publish(_ response: CommandResponse, for command: MQTTMessage) {
        let destination = CommandResponse.destination(for: command)
        let logger = logger
        client.publish(
            destination.topic, payload: response.payload.encoded(), qos: .atLeastOnce, properties: destination.properties
        ) { outcome in
            if case .failure(let error) = outcome {
                logger.warning("command response not published", metadata: ["topic": "\(destination.topic)", "error": "\(error)"])
            }
        }
    }
}
