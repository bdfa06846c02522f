#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MQTT
import Synchronization

/// What the bridge's page shows, taken from the bridge itself rather than from the broker: every
/// retained state it publishes under its base topic, its recent warnings and events, and its last
/// commands with their answers. Bounded throughout; the page's streams subscribe here.
public final class BridgeActivity: Sendable {
    public let topics: BridgeTopics
    /// The request-API's topics (docs/topics.md): shown when the bridge publishes them.
    private let loggingTopic: String
    private let eventTopic: String
    private let state = Mutex(State())

    fileprivate struct State {
        var mirror = RetainedMirror()
        var messages = RecentRing<BridgeMessage>(capacity: 100)
        var commands = RecentRing<CommandRecord>(capacity: 100)
        var timings = CommandTimings()
        var replies = PageReplies()
        var subscribers: [Int: @Sendable (ActivityEvent) -> Void] = [:]
        var nextSubscriber = 0
        /// Topic filters whose texts the page never shows (`CredentialTopics`).
        var withheld: Set<String> = []

        func withholds(_ topic: String) -> Bool {
            withheld.contains { TopicFilter.matches($0, topic: topic) }
        }
    }

    /// What stands on the page in place of a text that carries credentials.
    static let withheldText = "(withheld: carries credentials)"

    /// Topic filters (whole topics) whose commands, answers and retained states carry
    /// credentials: the page shows them withheld.
    func withhold(_ filters: [String]) {
        state.withLock { $0.withheld.formUnion(filters) }
    }

    public init(baseTopic: String) {
        topics = BridgeTopics(base: baseTopic)
        loggingTopic = "\(baseTopic)/bridge/logging"
        eventTopic = "\(baseTopic)/bridge/event"
    }

    /// Every publish of the bridge's MQTT client comes through here (`MQTTClient`'s `onPublish`).
    func published(_ topic: String, _ payload: [UInt8], retain: Bool) {
        guard topic.utf8.starts(with: topics.base.utf8), topic.utf8.dropFirst(topics.base.utf8.count).first == UInt8(ascii: "/"),
              let text = String(validating: payload, as: UTF8.self) else { return }
        let now = Date()
        state.withLock { state in
            if retain {
                let shown = text.isEmpty || !state.withholds(topic) ? text : Self.withheldText
                guard let entry = state.mirror.record(topic, shown, at: now) else { return }
                state.notify(.retained(topic: topic, payload: entry.payload, changedAt: entry.changedAt))
            } else if topic == loggingTopic || topic == eventTopic {
                let message = BridgeMessage(topic: topic, payload: Self.clipped(text), time: now)
                state.messages.append(message)
                state.notify(.message(message))
            }
        }
    }

    /// A command reached its integration's queue: its answer's duration counts from here.
    func received(_ command: MQTTMessage) {
        guard !command.retain else { return }
        state.withLock { $0.timings.arrived(command) }
    }

    /// Records `command`'s answer. `true` when the page sent it: the answer goes back to the page,
    /// not to MQTT.
    func answered(_ command: MQTTMessage, _ response: CommandResponse) -> Bool {
        let now = Date()
        let local = PageReplies.id(of: command)
        let reply = state.withLock { state in
            let seconds = state.timings.answered(command).map { (ContinuousClock.now - $0).timeInterval } ?? 0
            let withheld = state.withholds(command.topic)
            let record = CommandRecord(
                topic: command.topic,
                payload: withheld ? Self.withheldText : Self.clipped(String(decoding: command.payload, as: UTF8.self)),
                answer: withheld ? Self.withheldText : Self.clipped(response.payload.encodedString()), seconds: seconds, time: now,
                fromPage: local != nil)
            state.commands.append(record)
            state.notify(.command(record))
            return local.flatMap { state.replies.take($0) }
        }
        reply?.resume(returning: response)
        return local != nil
    }

    /// Sends `payload` to `topic` as a command from the page: `route` hands it to the bridge's
    /// command queues, as the dispatcher hands an MQTT message; returns its answer.
    func pageCommand(_ topic: String, _ payload: [UInt8], route: (MQTTMessage) -> Void) async -> CommandResponse {
        await withCheckedContinuation { continuation in
            guard let message = state.withLock({ $0.replies.message(topic, payload, answer: continuation) }) else {
                let busy = CommandError("busy: \(PageReplies.capacity) commands from the page are already waiting", code: .busy)
                return continuation.resume(returning: CommandResponse(result: .failure(busy), transaction: nil))
            }
            route(message)
        }
    }

    /// What the page starts from, and the changes after it, with no gap between the two: `start`
    /// gets the snapshot, then `handler` every change, in order. Both are called under this
    /// object's lock: they must only hand the event on.
    public func subscribe(
        start: (JSONValue) -> Void, _ handler: @escaping @Sendable (ActivityEvent) -> Void
    ) -> Int {
        state.withLock { state in
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            start(state.snapshot)
            state.subscribers[id] = handler
            return id
        }
    }

    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// What a command, an answer or a message may keep of its text: a hundred of each stay
    /// small, whatever a payload or an answer (the recently blocked domains, gravity's output) holds.
    static let maximumTextBytes = 4096

    static func clipped(_ text: String) -> String {
        guard text.utf8.count > maximumTextBytes else { return text }
        return String(decoding: text.utf8.prefix(maximumTextBytes), as: UTF8.self) + "…"
    }
}

extension BridgeActivity.State {
    func notify(_ event: ActivityEvent) {
        for handler in subscribers.values { handler(event) }
    }

    var snapshot: JSONValue {
        [
            "retained": .object(mirror.entries.mapValues {
                ["payload": .string($0.payload), "changed_at": .string($0.changedAt.iso8601)]
            }),
            "retained_left_out": .number(Double(mirror.leftOut)),
            "messages": .array(messages.elements.map(\.json)),
            "commands": .array(commands.elements.map(\.json)),
        ]
    }
}
