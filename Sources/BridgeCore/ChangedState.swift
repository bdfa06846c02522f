/// A retained state message as an integration means it.
public enum StateMessage: Equatable, Sendable {
    case json(JSONValue)
    case availability(Bool)
    /// The thing went away: an empty retained message removes the topic.
    case cleared
}

/// What went out last on each state topic, so that an unchanged state is not published again
/// every poll. (After a reconnect the MQTT client re-publishes the latest values itself.)
///
/// Asked after every command with the integration's whole state: one dictionary access per
/// topic, and `round` finds the topics that went away without a set of the present ones.
public struct ChangedState: Sendable {
    private var last: [String: (message: StateMessage, round: Int)] = [:]
    private var round = 0

    public init() {}

    /// For an integration a reload started in place of another (its section changed): as if each
    /// topic its predecessor left had been published with something no message equals, so that
    /// every topic goes out again and its first whole state clears those it no longer has.
    public init(inheritingFrom context: IntegrationContext) {
        for topic in context.retained.inherited { last[topic] = (.cleared, 0) }
    }

    /// The messages that differ from what went out last, remembered as sent. Clearing a topic
    /// is a change only when something was published there.
    public mutating func changes(_ messages: [(topic: String, message: StateMessage)]) -> [(topic: String, message: StateMessage)] {
        messages.filter { topic, message in
            if message == .cleared { return last.removeValue(forKey: topic) != nil }
            return last.updateValue((message, round), forKey: topic)?.message != message
        }
    }

    /// `changes(_:)` for an integration's whole state at once: a topic published before and
    /// absent from `messages` belongs to a thing that went away, and is cleared.
    public mutating func changes(replacingAll messages: [(topic: String, message: StateMessage)]) -> [(topic: String, message: StateMessage)] {
        round += 1
        var changed = changes(messages)
        let gone = last.compactMap { $0.value.round == round ? nil : $0.key }.sorted()
        for topic in gone {
            last[topic] = nil
            changed.append((topic, .cleared))
        }
        return changed
    }

    /// `changes(replacingAll:)` for a whole state, `changes(_:)` for a part of it.
    public mutating func changes(_ publication: StatePublication) -> [(topic: String, message: StateMessage)] {
        publication.isWhole ? changes(replacingAll: publication.messages) : changes(publication.messages)
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
