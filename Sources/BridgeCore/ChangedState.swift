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
