import Logging
import MQTT

/// What a running integration may do: publish its state and availability (retained), change
/// its Home Assistant entities, keep timers that survive a restart, and take its turn in the
/// lanes its commands wait in.
public struct IntegrationContext: Sendable {
    public let topics: IntegrationTopics
    public let logger: Logger
    /// What timed commands promised to undo, kept in `bridge.state_dir`.
    public let timers: IntegrationTimers
    /// The bridge's time, which its timers run on too.
    public var clock: any BridgeClock { timers.store.clock }
    let client: MQTTClient
    let health: HealthRecorder
    let discovery: DiscoveryPublisher?
    let events: BridgeEvents?
    /// What this run published, for a reload to clear.
    let retained: RetainedTopics
    /// The integration running under a name now, for scenes; `nil` where none may be reached.
    let peers: (@Sendable (String) -> IntegrationRun?)?
    /// Where its commands and its own actions take turns.
    let lanes: IntegrationLanes

    init(
        topics: IntegrationTopics, logger: Logger, timers: IntegrationTimers, client: MQTTClient,
        health: HealthRecorder, discovery: DiscoveryPublisher?, events: BridgeEvents? = nil,
        peers: (@Sendable (String) -> IntegrationRun?)? = nil, retained: RetainedTopics = RetainedTopics(),
        lanes: IntegrationLanes = IntegrationLanes()
    ) {
        self.topics = topics
        self.logger = logger
        self.timers = timers
        self.client = client
        self.health = health
        self.discovery = discovery
        self.events = events
        self.peers = peers
        self.retained = retained
        self.lanes = lanes
    }

    /// This context, with what timed changes promise going to a scene's `capture`.
    func capturing(into capture: ScenePartCapture) -> IntegrationContext {
        IntegrationContext(
            topics: topics, logger: logger, timers: timers.capturing(into: capture), client: client, health: health,
            discovery: discovery, events: events, peers: peers, retained: retained, lanes: lanes)
    }

    /// `body` in the integration's own turn in `lanes`, the names its commands wait in
    /// (`Integration.lanes(for:)`): an action on an outlet (a trip, a restore) runs after the
    /// command on it that runs now and before those still waiting, never beside one. Within a
    /// command's own work, a turn it has is not waited for again.
    public func inTurn<T: Sendable, Failure: Error>(
        of lanes: Set<String>, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        try await self.lanes.inTurn(of: lanes, body)
    }

    /// A timer's `restore` in the turn of `lanes`: settled with nothing done when a command for
    /// its object came first while it waited (`IntegrationTimers.isSuperseded`), so that the
    /// restore never undoes the person's later word.
    public func restoreInTurn(_ timer: PersistedTimer, of lanes: Set<String>, _ restore: () async -> Bool) async -> Bool {
        await inTurn(of: lanes) { () async -> Bool in timers.isSuperseded(timer) ? true : await restore() }
    }

    /// Publishes retained state below the integration's root (`""` is the root itself), without
    /// waiting: offline, the latest value of each topic goes out at the next connect, and after
    /// every reconnect again, in case the broker lost it.
    public func publishState(_ relativeTopic: String, _ payload: JSONValue) async {
        events?.availability.noteState(integration: topics.name, topic: relativeTopic, error: payload["error"]?.stringValue)
        await publishRetained(relativeTopic, payload.encoded())
    }

    /// `online` / `offline` at `<relativeTopic>`, retained.
    public func publishAvailability(_ relativeTopic: String, online: Bool) async {
        await publishRetained(relativeTopic, Array((online ? BridgeTopics.online : BridgeTopics.offline).utf8))
        events?.availabilityPublished(integration: topics.name, topic: relativeTopic, online: online)
    }

    /// Clears a retained state topic (an empty retained message), for a thing that went away.
    public func clearState(_ relativeTopic: String) async {
        events?.availability.forget(integration: topics.name, topic: relativeTopic)
        await publishRetained(relativeTopic, [])
    }

    /// Makes `entities` this integration's runtime entities: new ones appear in Home Assistant,
    /// changed ones are updated, and those no longer listed are removed. Does nothing when
    /// discovery is off.
    public func setRuntimeEntities(_ entities: [DiscoveryEntity]) async {
        await discovery?.setRuntimeEntities(entities, of: topics.name)
    }

    /// Marks a successful exchange with the upstream, for `bridge/health`.
    /// Something that happened, on `base/bridge/event` (`{"type","time","data"}`, the integration named in `data`).
    public func publishEvent(_ type: String, _ data: [String: JSONValue]) {
        events?.publish(type, data.merging(["integration": .string(topics.name)]) { first, _ in first })
    }

    public func recordUpstreamSuccess() {
        health.recordSuccess(integration: topics.name)
    }

    /// Hands the message to the client, which never waits for the broker: what an integration
    /// decides (an interlock, a restore) must not wait on a broker that is away. Then lets the
    /// loop's other tasks run, as the wait for the broker's acknowledgement once did: a whole
    /// state handed over in one go holds up the upstream reads that share the loop.
    private func publishRetained(_ relativeTopic: String, _ payload: [UInt8]) async {
        retained.published(relativeTopic, cleared: payload.isEmpty)
        client.publishRetained(topics.topic(relativeTopic), payload: payload)
        await Task.yield()
    }
}
