import Synchronization

/// Every availability the integrations publish (`main/availability`, `availability`…), and the
/// last `error` of the state beside it: what `health_check` reports and what makes the
/// `upstream_unavailable` and `upstream_available` events.
final class UpstreamAvailability: Sendable {
    /// A change worth an event.
    struct Change: Equatable, Sendable {
        let integration: String
        /// The thing's path below the integration (`main`, `controller/home`); `nil` for the
        /// integration as a whole (its root `availability`).
        let upstream: String?
        let available: Bool
        let error: String?
    }

    private struct State {
        /// Integration → availability topic (relative) → online.
        var online: [String: [String: Bool]] = [:]
        /// Integration → state topic (relative) → its `error`.
        var errors: [String: [String: String]] = [:]
    }

    private let state = Mutex(State())
    static let topicLevel = "availability"

    /// Notes the `error` of a state the integration published (`nil`: none, or no longer).
    func noteState(integration: String, topic: String, error: String?) {
        state.withLock { $0.errors[integration, default: [:]][topic] = error }
    }

    /// - Returns: the change, when `online` differs from what this topic said before; an
    ///   upstream's first word is a change only when it is `offline` (it is down from the start).
    func record(integration: String, topic: String, online: Bool) -> Change? {
        guard topic == Self.topicLevel || topic.hasSuffix("/" + Self.topicLevel) else { return nil }
        let upstream = topic == Self.topicLevel ? nil : String(topic.dropLast(Self.topicLevel.count + 1))
        return state.withLock { state in
            let before = state.online[integration, default: [:]].updateValue(online, forKey: topic)
            guard before != online, before != nil || !online else { return nil }
            let error = online ? nil : state.errors[integration]?[upstream ?? ""]
            return Change(integration: integration, upstream: upstream, available: online, error: error)
        }
    }

    /// The thing went away (its state or availability topic was cleared).
    func forget(integration: String, topic: String) {
        state.withLock { state in
            state.online[integration]?[topic] = nil
            state.errors[integration]?[topic] = nil
        }
    }

    /// The integration went away (or starts again): nothing it said counts any more.
    func forget(integration: String) {
        state.withLock { state in
            state.online[integration] = nil
            state.errors[integration] = nil
        }
    }

    /// `{"available": true|false|null, "upstreams": {"main": true, …}}`: `null` before the
    /// integration said anything.
    func report(integration: String) -> [String: JSONValue] {
        let online = state.withLock { $0.online[integration] ?? [:] }
        var upstreams: [String: JSONValue] = [:]
        for (topic, isOnline) in online where topic != Self.topicLevel {
            upstreams[String(topic.dropLast(Self.topicLevel.count + 1))] = .bool(isOnline)
        }
        return ["available": online[Self.topicLevel].map(JSONValue.bool) ?? .null, "upstreams": .object(upstreams)]
    }

    func isAvailable(integration: String) -> Bool {
        state.withLock { $0.online[integration]?[Self.topicLevel] } == true
    }
}
