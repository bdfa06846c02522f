import Synchronization

/// Publishes an integration's state topics, each only when its payload differs from what went
/// out last: a poll that finds nothing new sends nothing.
public final class ChangedStatePublisher: Sendable {
    /// What one state topic carries.
    public enum Message: Equatable, Sendable {
        case json(JSONValue)
        /// `online` / `offline`.
        case availability(Bool)
    }

    /// Topic (relative to the integration's root) → what went out last.
    private let published = Mutex<[String: Message]>([:])

    public init() {}

    /// Publishes those of `messages` that changed. With `clearingMissing`, `messages` is the whole
    /// state: a topic published before and missing now belongs to a thing that went away, and is
    /// cleared (an empty retained message).
    public func publish(
        _ messages: [(topic: String, message: Message)], context: IntegrationContext, clearingMissing: Bool = false
    ) async {
        let (changed, missing) = published.withLock { published in
            let changed = messages.filter { published[$0.topic] != $0.message }
            for (topic, message) in changed { published[topic] = message }
            var missing: [String] = []
            if clearingMissing {
                let current = Set(messages.map(\.topic))
                missing = published.keys.filter { !current.contains($0) }.sorted()
                for topic in missing { published[topic] = nil }
            }
            return (changed, missing)
        }
        for (topic, message) in changed {
            switch message {
            case .json(let value): await context.publishState(topic, value)
            case .availability(let online): await context.publishAvailability(topic, online: online)
            }
        }
        for topic in missing { await context.clearState(topic) }
    }
}
