import Logging
import MQTT
import Synchronization

/// A command admitted to its integration's lanes: what the queue needs to run and answer it.
/// `expiresAt`: when its MQTT 5 message expiry (the remaining interval the broker gave at
/// delivery) runs out, if it has one. `arrival`: who waits for its answer, and since when.
struct QueuedCommand: Sendable {
    let transaction: JSONValue?
    let prepared: PreparedCommand
    let message: MQTTMessage
    let expiresAt: ContinuousClock.Instant?
    let arrival: CommandArrival
}

/// One integration's commands, each with a time limit, each answered exactly once. Commands
/// sharing a lane (`Integration.lanes(for:)`) run one at a time in arrival order, with the
/// integration's own actions in those lanes (`IntegrationLanes`); commands with no lane in common
/// run at once, so a slow upstream object never holds back another.
final class CommandQueue: Sendable {
    let integration: any Integration
    let context: IntegrationContext
    let responder: CommandResponder
    let timeLimit: Duration
    let metrics: BridgeMetrics
    private let retainedCommands = RetainedCommandLog()
    private let countersByTopic = Mutex<[String: CommandCounters]>([:])
    private var lanes: IntegrationLanes { context.lanes }

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

    /// Parses and queues a message, or answers it at once when it cannot be queued.
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
        if let refusal = lanes.enter() {
            answer(message, CommandResponse(result: .failure(refusal), transaction: transaction), to: arrival)
            return
        }
        switch prepared {
        case .failure(let error):
            logFailure(of: message, error)
            answer(message, CommandResponse(result: .failure(error), transaction: transaction), to: arrival)
            lanes.settle()
        case .success(let (prepared, expiresAt)):
            let command = QueuedCommand(transaction: transaction, prepared: prepared, message: message, expiresAt: expiresAt, arrival: arrival)
            if lanes.admit(command) == .refused {
                let busy = CommandError("busy: \(Self.capacity) commands are already waiting for \(integration.name)", code: .busy)
                answer(message, CommandResponse(result: .failure(busy), transaction: transaction), to: arrival)
                lanes.settle()
            }
        }
    }

    /// The bridge is shutting down (or the integration is reloaded): the commands running now are
    /// stopped and those waiting are not started, all answered with `refusal`, and `run` returns
    /// once all are answered.
    func close(refusing refusal: CommandError = CommandQueue.shuttingDown) {
        lanes.close(refusing: refusal)
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

    /// Until `close()`, and then until every command it was handed is answered: each command
    /// runs in a task of its own once its turn comes. Its reading of `work` is never cancelled: a
    /// cancelled read would drop what waits in the stream unanswered.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await item in lanes.work {
                switch item {
                case .start(let ticket, let command):
                    group.addTask {
                        let response = await self.lanes.running(command) { await self.outcome(of: command) }
                        self.lanes.finish(ticket) { self.answer(command.message, response, to: command.arrival) }
                    }
                case .close:
                    // What runs is cancelled; what starts from here on starts cancelled and is refused.
                    group.cancelAll()
                }
            }
        }
    }

    /// Runs a command whose turn has come, unless the bridge is shutting down or the command's
    /// message expiry passed while it waited: then it is refused, not started upstream.
    private func outcome(of command: QueuedCommand) async -> CommandResponse {
        let (transaction, prepared, message) = (command.transaction, command.prepared, command.message)
        if Task.isCancelled {
            return CommandResponse(result: .failure(lanes.refusal), transaction: transaction)
        }
        if let expiresAt = command.expiresAt, expiresAt <= .now {
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
        case .cancelled: .failure(lanes.refusal)
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
