import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What the bridge's page shows, as the bridge tells it (`BridgeObserver`) rather than as the
/// broker does: every retained state it publishes under its base topic, its recent warnings and
/// events, and its last commands with their answers. Bounded throughout; the page's streams
/// subscribe here.
public final class PageActivity: BridgeObserver {
    public let topics: BridgeTopics
    private let state = Mutex(State())

    fileprivate struct State {
        var mirror = RetainedMirror()
        var messages = RecentRing<BridgeMessage>(capacity: 100)
        var commands = RecentRing<CommandRecord>(capacity: 100)
        var subscribers: [Int: @Sendable (ActivityEvent) -> Void] = [:]
        var nextSubscriber = 0
    }

    /// What stands on the page in place of a text that carries credentials.
    static let withheldText = "(withheld: carries credentials)"

    public init(baseTopic: String) {
        topics = BridgeTopics(base: baseTopic)
    }

    public func published(_ topic: String, _ payload: [UInt8], retain: Bool, carriesCredentials: Bool) {
        guard topic.utf8.starts(with: topics.base.utf8), topic.utf8.dropFirst(topics.base.utf8.count).first == UInt8(ascii: "/"),
              let text = String(validating: payload, as: UTF8.self) else { return }
        let now = Date()
        state.withLock { state in
            if retain {
                let shown = text.isEmpty || !carriesCredentials ? text : Self.withheldText
                guard let entry = state.mirror.record(topic, shown, at: now) else { return }
                state.notify(.retained(topic: topic, payload: entry.payload, changedAt: entry.changedAt))
            } else if topic == topics.logging || topic == topics.event {
                let message = BridgeMessage(topic: topic, payload: Self.clipped(text), time: now)
                state.messages.append(message)
                state.notify(.message(message))
            }
        }
    }

    public func answered(_ command: AnsweredCommand) {
        let withheld = command.carriesCredentials
        let record = CommandRecord(
            topic: command.topic,
            payload: withheld ? Self.withheldText : Self.clipped(String(decoding: command.payload, as: UTF8.self)),
            answer: withheld ? Self.withheldText : Self.clipped(command.response.payload.encodedString()),
            seconds: command.duration.timeInterval, time: Date(), fromPage: command.sentInProcess)
        state.withLock { state in
            state.commands.append(record)
            state.notify(.command(record))
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

extension PageActivity.State {
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
