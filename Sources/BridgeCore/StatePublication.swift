/// An integration's whole state at one moment, or what some commands changed of it, as its one
/// publishing task sends it.
public struct StatePublication: Sendable {
    public var messages: [(topic: String, message: StateMessage)]
    /// Whether `messages` are the whole state (a topic left out is cleared: its thing went away)
    /// or only the things some commands changed (nothing is cleared).
    public var isWhole: Bool
    /// Whether some upstream answered: marks `bridge/health`.
    public var upstreamAnswered: Bool
    /// The runtime entities, or `nil` while they are not all known (an upstream not yet read
    /// once: reporting them then would remove that upstream's entities from Home Assistant), or
    /// when they are as last set.
    public var runtimeEntities: [DiscoveryEntity]?

    /// The whole state.
    public init(messages: [(topic: String, message: StateMessage)], upstreamAnswered: Bool, runtimeEntities: [DiscoveryEntity]? = nil) {
        self.messages = messages
        isWhole = true
        self.upstreamAnswered = upstreamAnswered
        self.runtimeEntities = runtimeEntities
    }

    /// Only the things some commands changed: at a thousand UniFi rules, gathering the whole
    /// state after every command took milliseconds of the loop that also carries the answers.
    public static func part(_ messages: [(topic: String, message: StateMessage)], upstreamAnswered: Bool) -> StatePublication {
        var publication = StatePublication(messages: messages, upstreamAnswered: upstreamAnswered)
        publication.isWhole = false
        return publication
    }
}

extension IntegrationContext {
    /// The one task that publishes an integration's state: polls, commands and restores ask it
    /// through `requests`, so that state goes out in order, whoever changed it. Each time it
    /// publishes what changed of what `gather` returns for the parts asked for (`nil`: the whole
    /// state) and sets the runtime entities. Runs until cancelled.
    public func publishWhenAsked<Part>(_ requests: PublishRequests<Part>, _ gather: (Set<Part>?) async -> StatePublication) async {
        var published = ChangedState(inheritingFrom: self)
        while !Task.isCancelled {
            await requests.wakeup.wait(atMost: .seconds(3600))
            guard !Task.isCancelled else { return }
            let publication = await gather(requests.take())
            // Entities first: one whose thing went away leaves Home Assistant before its state is cleared.
            if let entities = publication.runtimeEntities { await setRuntimeEntities(entities) }
            for (topic, message) in published.changes(publication) {
                await publish(topic, message)
            }
            if publication.upstreamAnswered { recordUpstreamSuccess() }
        }
    }
}
