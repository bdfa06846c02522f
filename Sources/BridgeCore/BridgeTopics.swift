/// Every topic the bridge itself uses. Integrations define theirs beside their feature, under
/// `base/<integration>`; `docs/topics.md` lists them all.
public struct BridgeTopics: Sendable, Equatable {
    public let base: String

    public init(base: String) {
        self.base = base
    }

    /// `online` / `offline`, retained, QoS 1; the last will sets `offline`.
    public var state: String { "\(base)/bridge/state" }
    /// Version, enabled integrations and the redacted configuration, retained JSON.
    public var info: String { "\(base)/bridge/info" }
    /// Uptime, memory, reconnects and per-integration last success, retained JSON, every minute.
    public var health: String { "\(base)/bridge/health" }
    /// Warnings and errors, not retained, rate-limited: `{"level","message","logger","time"}`.
    public var logging: String { "\(base)/bridge/logging" }
    /// Things that happened, not retained: `{"type","time","data"}`.
    public var event: String { "\(base)/bridge/event" }
    /// `health_check`, `log_level`, `reload`: answered as every command is.
    public func request(_ name: String) -> String { "\(base)/bridge/request/\(name)" }

    /// Where clients should ask for MQTT 5 responses (`<replies>/<client>/…`): inside the base
    /// topic, so a broker ACL that lets a role read `base/#` lets it read its answers too.
    public var replies: String { "\(base)/replies" }

    /// `base/<integration>`: the root of an integration's state and commands.
    public func integration(_ name: String) -> String { "\(base)/\(name)" }

    /// Where a command's answer goes when the command names no MQTT 5 response topic.
    public static func defaultResponseTopic(for commandTopic: String) -> String {
        "\(commandTopic)/response"
    }

    public static let online = "online"
    public static let offline = "offline"
}

/// Home Assistant's side of MQTT discovery.
public struct DiscoveryTopics: Sendable, Equatable {
    public let prefix: String
    /// Groups this bridge's entities, and tells two bridges on one broker apart.
    public let nodeID: String

    public init(prefix: String, base: String) {
        self.prefix = prefix
        nodeID = "home2mqtt_" + String(base.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// Home Assistant publishes `online` here when it starts: the cue to publish configs again.
    public var homeAssistantStatus: String { "\(prefix)/status" }

    public func config(component: String, objectID: String) -> String {
        "\(prefix)/\(component)/\(nodeID)/\(objectID)/config"
    }

    /// Every config this bridge may have published, current or stale.
    public var allConfigs: String { "\(prefix)/+/\(nodeID)/+/config" }
}
