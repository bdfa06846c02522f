/// What an integration may offer beyond what every integration does (`Integration`). Each
/// capability is looked for by the one feature that needs it (`integration as? any SceneTargets`),
/// so a new feature adds a capability here rather than a requirement on every integration.

/// Home Assistant entities, which the bridge's discovery publishes, republishes and clears.
public protocol HomeAssistantEntities {
    /// The entities known from the configuration alone. Entities that come and go with the
    /// upstream (rules, outlets, groups) are set while running with
    /// `IntegrationContext.setRuntimeEntities`.
    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity]

    /// Whether the integration sets runtime entities. Until it has set them once, the bridge
    /// clears no discovery config it does not know: they may be this integration's.
    var hasRuntimeEntities: Bool { get }
}

extension HomeAssistantEntities {
    public var hasRuntimeEntities: Bool { false }
}

extension Integration {
    /// The entities it declares, if it has any.
    func declaredEntities(topics: IntegrationTopics) -> [DiscoveryEntity] {
        (self as? any HomeAssistantEntities)?.discoveryEntities(topics: topics) ?? []
    }
}

/// What `check-config` and the start ask about an integration's configuration.
public protocol ConfigurationChecks {
    /// Advice `check-config` prints: what people get wrong.
    var configurationHints: [String] { get }

    /// Asks the upstream, once before the bridge goes online, about what only it can tell is
    /// wrong with the configuration (a site that must be named, say): that stops the start. An
    /// upstream that does not answer is no reason to stop; polling retries it. Bounded by the
    /// integration's request timeout.
    func checkConfigurationWithUpstream() async throws(ConfigError)
}

extension ConfigurationChecks {
    public var configurationHints: [String] { [] }
    public func checkConfigurationWithUpstream() async throws(ConfigError) {}
}

/// Targets a scene can set and restore (`scenes[].parts[]`).
public protocol SceneTargets: Integration {
    /// The kinds of part this integration carries out: the key that names a part's target
    /// (`pihole_group: kids`).
    var scenePartKinds: Set<String> { get }

    /// A part as this integration's own timed command, lasting `until`: read from the part's
    /// configuration item (every key beside the kind is the integration's to read), at the start
    /// to check it and at each ON to carry it out. The scene runs it in this integration's lanes;
    /// what the command's timers would have promised to undo goes to the scene's promise.
    func sceneCommand(for part: ScenePart, until: Duration) throws(ConfigError) -> Command

    /// Asks the upstream, once before the bridge goes online, whether a part's target exists: one
    /// the upstream answers without stops the start, naming the part's key. An upstream that does
    /// not answer is no reason to stop; the part is checked when the scene runs.
    func checkSceneTarget(_ part: ScenePart) async throws(ConfigError)

    /// Carries out a restore that a timer of this integration's (or a scene's promise) holds.
    /// - Returns: whether it is settled (done, or never can be); `false` has it tried again later.
    func carryOutRestore(_ timer: PersistedTimer, context: IntegrationContext) async -> Bool
}

/// Commands that may take longer (or must take less) than the bridge's `command_timeout`.
public protocol CommandTimeLimits: Integration {
    /// How long this command may take; `nil`: the bridge's `command_timeout`.
    func timeLimit(for command: Command) -> Duration?
}

extension CommandTimeLimits {
    /// `timeLimit(for:)` where the command's type is known only to the integration (the queue
    /// holds integrations of every kind).
    func timeLimit(forCommand command: any Sendable) -> Duration? {
        (command as? Command).flatMap(timeLimit(for:))
    }
}

/// Topic filters below `base/<name>` whose commands, answers and retained states carry
/// credentials (guest Wi-Fi codes): the bridge's page shows them withheld.
public protocol CredentialTopics {
    var credentialTopics: [String] { get }
}

/// Topic filters below `base/<name>` of the commands a person may send from a client that
/// shows the bridge to the household (the page's switches and pauses): everyday commands, not the
/// admin actions, the lists or revoking, which stay behind the broker's ACL.
public protocol EverydayCommands {
    var everydayCommands: [String] { get }
}
