import Logging

/// One upstream, brought onto MQTT: the seam every integration plugs into, and only what every
/// integration does. What a feature needs of some integrations (Home Assistant entities, scene
/// targets, checks of the configuration, time limits of their own, withheld topics) is a
/// capability beside it (`IntegrationCapabilities.swift`), which the feature looks for.
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

    /// Polls the upstream and publishes state until the task is cancelled.
    func run(context: IntegrationContext) async

    /// A command as this integration reads it. The bridge parses each command once, when it
    /// arrives (`parse`), and hands that value to `lanes` and `handle`.
    associatedtype Command: Sendable = CommandRequest

    /// Reads a command's topic and payload; a command it refuses is answered with the error and
    /// reaches no upstream.
    func parse(_ request: CommandRequest) throws(CommandError) -> Command

    /// The lanes a command occupies. Commands sharing a lane run one at a time, in arrival order;
    /// commands with no lane in common run at once; a command in several lanes (one for every
    /// Pi-hole) waits for its turn in each. One lane for everything (the default) runs every
    /// command in turn.
    func lanes(for command: Command) -> Set<String>

    /// Carries out one command; the returned value becomes the response's `data`.
    func handle(_ command: Command, context: IntegrationContext) async throws(CommandError) -> JSONValue?

    /// Releases what the upstream holds for us (a session, say). Bounded: the bridge waits briefly.
    func shutdown() async
}

extension Integration {
    public func lanes(for command: Command) -> Set<String> { [""] }
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
