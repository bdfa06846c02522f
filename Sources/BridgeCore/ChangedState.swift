/// A retained state message as an integration means it.
public enum StateMessage: Equatable, Sendable {
    case json(JSONValue)
    case availability(Bool)
    /// The thing went away: an empty retained message removes the topic.
    case cleared
}

/// What went out last on each state topic, so that an unchanged state is not published again
/// every poll. (After a reconnect the MQTT client re-publishes the latest values itself.)
public struct ChangedState: Sendable {
    private var last: [String: StateMessage] = [:]

    public init() {}

    /// The messages that differ from what went out last, remembered as sent. Clearing a topic
    /// is a change only when something was published there.
    public mutating func changes(_ messages: [(topic: String, message: StateMessage)]) -> [(topic: String, message: StateMessage)] {
        messages.filter { topic, message in
            let previous = last[topic]
            last[topic] = message == .cleared ? nil : message
            return message == .cleared ? previous != nil : previous != message
        }
    }

    /// `changes(_:)` for an integration's whole state at once: a topic published before and
    /// absent from `messages` belongs to a thing that went away, and is cleared.
    public mutating func changes(replacingAll messages: [(topic: String, message: StateMessage)]) -> [(topic: String, message: StateMessage)] {
        let current = Set(messages.map(\.topic))
        let gone = last.keys.filter { !current.contains($0) }.sorted().map { (topic: $0, message: StateMessage.cleared) }
        return changes(messages + gone)
    }
}

extension IntegrationContext {
    public func publish(_ relativeTopic: String, _ message: StateMessage) async {
        switch message {
        case .json(let value): await publishState(relativeTopic, value)
        case .availability(let online): await publishAvailability(relativeTopic, online: online)
        case .cleared: await clearState(relativeTopic)
        }
    }
}
