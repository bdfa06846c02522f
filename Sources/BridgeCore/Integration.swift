import Logging

/// One upstream, brought onto MQTT: the seam every integration plugs into.
///
/// An integration owns the topics below `base/<name>`. The bridge starts `run` when it is
/// connected, hands it the commands that arrive on `commandFilters` (one at a time per lane), and at
/// shutdown cancels `run` and then awaits `shutdown`, so an integration can log out of its
/// upstream before the bridge goes offline.
public protocol Integration: Sendable {
    /// The topic level below the base topic, and the configuration section: `pihole`.
    var name: String { get }

    /// Command topic filters below `base/<name>`: `pause`, `+/pause`, `domains/+/+`.
    /// Keep them clear of the integration's own state topics: the bridge subscribes to them.
    var commandFilters: [String] { get }

    /// Home Assistant entities known from the configuration alone; the bridge publishes,
    /// republishes and clears their configs. Entities that come and go with the upstream (rules,
    /// outlets, groups) are set while running with `IntegrationContext.setRuntimeEntities`.
    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity]

    /// Whether the integration sets runtime entities. Until it has set them once, the bridge
    /// clears no discovery config it does not know: they may be this integration's.
    var hasRuntimeEntities: Bool { get }

    /// Polls the upstream and publishes state until the task is cancelled.
    func run(context: IntegrationContext) async

    /// A command as this integration reads it. The bridge parses each command once, when it
    /// arrives (`parse`), and hands that value to `lanes`, `timeLimit` and `handle`.
    associatedtype Command: Sendable = CommandRequest

    /// Reads a command's topic and payload; a command it refuses is answered with the error and
    /// reaches no upstream.
    func parse(_ request: CommandRequest) throws(CommandError) -> Command

    /// The lanes a command occupies. Commands sharing a lane run one at a time, in arrival order;
    /// commands with no lane in common run at once; a command in several lanes (one for every
    /// Pi-hole) waits for its turn in each. One lane for everything (the default) runs every
    /// command in turn.
    func lanes(for command: Command) -> Set<String>

    /// How long this command may take, when it is not the bridge's `command_timeout` (a run that
    /// streams for minutes, say). `nil`: the bridge's.
    func timeLimit(for command: Command) -> Duration?

    /// Carries out one command; the returned value becomes the response's `data`.
    func handle(_ command: Command, context: IntegrationContext) async throws(CommandError) -> JSONValue?

    /// Releases what the upstream holds for us (a session, say). Bounded: the bridge waits briefly.
    func shutdown() async

    /// Advice `check-config` prints about this integration's configuration: what people get wrong.
    var configurationHints: [String] { get }

    /// Topic filters below `base/<name>` whose commands, answers and retained states carry
    /// credentials (guest Wi-Fi codes): the bridge's page shows them withheld.
    var credentialTopics: [String] { get }

    /// Asks the upstream, once before the bridge goes online, about what only it can tell is
    /// wrong with the configuration (a site that must be named, say): that stops the start. An
    /// upstream that does not answer is no reason to stop; polling retries it. Bounded by the
    /// integration's request timeout.
    func checkConfigurationWithUpstream() async throws(ConfigError)

    /// The kinds of scene part this integration carries out: the key that names a part's target
    /// in `scenes[].parts[]` (`pihole_group: kids`).
    var scenePartKinds: Set<String> { get }

    /// A scene's part as this integration's own timed command, lasting `until`: read from the
    /// part's configuration item (every key beside the kind is the integration's to read), at the
    /// start to check it and at each ON to carry it out. The scene runs it in this integration's
    /// lanes; what the command's timers would have promised to undo goes to the scene's promise.
    func sceneCommand(for part: ScenePart, until: Duration) throws(ConfigError) -> Command

    /// Asks the upstream, once before the bridge goes online, whether a scene part's target
    /// exists: one the upstream answers without stops the start, naming the part's key. An
    /// upstream that does not answer is no reason to stop; the part is checked when the scene runs.
    func checkSceneTarget(_ part: ScenePart) async throws(ConfigError)

    /// Carries out a restore that a timer of this integration's (or a scene's promise) holds.
    /// - Returns: whether it is settled (done, or never can be); `false` has it tried again later.
    func carryOutRestore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool
}

extension Integration {
    public var configurationHints: [String] { [] }
    public var credentialTopics: [String] { [] }
    public func checkConfigurationWithUpstream() async throws(ConfigError) {}
    public var hasRuntimeEntities: Bool { false }
    public func lanes(for command: Command) -> Set<String> { [""] }
    public func timeLimit(for command: Command) -> Duration? { nil }
    public var scenePartKinds: Set<String> { [] }
    public func sceneCommand(for part: ScenePart, until: Duration) throws(ConfigError) -> Command {
        throw ConfigError(key: part.item.path, "\(name) has no scene parts")
    }
    public func checkSceneTarget(_ part: ScenePart) async throws(ConfigError) {}
    public func carryOutRestore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool { true }
}

extension Integration where Command == CommandRequest {
    public func parse(_ request: CommandRequest) throws(CommandError) -> CommandRequest { request }
}

/// Builds an integration from its configuration section: the one line each integration adds
/// to the composition list is its factory.
public protocol IntegrationFactory: Sendable {
    /// The configuration key and topic level.
    var name: String { get }

    /// - Returns: `nil` when the section is absent (the integration is not enabled).
    func make(section: ConfigSection, environment: IntegrationEnvironment) throws(ConfigError) -> (any Integration)?
}

/// What the bridge offers an integration at construction time.
public struct IntegrationEnvironment: Sendable {
    public let logger: Logger
    /// Where the integration records its upstream requests, logins and availability.
    public let metrics: BridgeMetrics
    /// What the integration's polls and waits run on: the bridge's clock.
    public let clock: any BridgeClock

    public init(logger: Logger, metrics: BridgeMetrics = BridgeMetrics(), clock: any BridgeClock = .system) {
        self.logger = logger
        self.metrics = metrics
        self.clock = clock
    }
}

/// Topics under an integration's root.
public struct IntegrationTopics: Sendable, Equatable {
    public let bridge: BridgeTopics
    public let name: String
    public let root: String

    public init(bridge: BridgeTopics, name: String) {
        self.bridge = bridge
        self.name = name
        root = bridge.integration(name)
    }

    public func topic(_ relative: String) -> String {
        relative.isEmpty ? root : "\(root)/\(relative)"
    }
}
