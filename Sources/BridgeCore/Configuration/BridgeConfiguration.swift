#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MQTT
import UpstreamTrust

/// The bridge's own sections: `mqtt:` and `bridge:`. Integrations read their own sections.
public struct BridgeConfiguration: Sendable {
    public enum LogFormat: String, Sendable, CaseIterable { case text, json }
    public enum LogLevel: String, Sendable, CaseIterable { case trace, debug, info, notice, warning, error, critical }
    public enum ProtocolVersion: String, Sendable, CaseIterable {
        case v5 = "5"
        case v311 = "3.1.1"
    }

    public var mqtt: MQTTConfiguration
    public var baseTopic: String
    public var discoveryEnabled: Bool
    public var discoveryPrefix: String
    public var logFormat: LogFormat
    public var logLevel: LogLevel
    public var commandTimeout: Duration
    public var health: HealthConfiguration
    public var web: WebConfiguration
    /// Where the bridge keeps what must survive a restart (pending timers).
    public var stateDirectory: String
    /// Replicas of one bridge share its commands through an MQTT 5 shared subscription
    /// (`$share/<group>/<command filter>`) so each command runs once; `nil`: one bridge.
    public var sharedSubscriptionGroup: String?

    /// Seconds: long enough for a broker or a bridge to restart, short enough that a command left
    /// waiting (without a message expiry of its own) is not carried out long after it was meant.
    public static let defaultSessionExpiry = 300

    /// Keys whose values never leave the process: not in logs, not in `bridge/info`.
    public static let secretKeys: Set<String> = ["password", "api_key", "token", "secret"]

    public init(_ root: ConfigSection) throws(ConfigError) {
        let mqttSection = try root.section("mqtt").allowing([
            "host", "port", "client_id", "username", "password", "keepalive", "protocol", "tls", "session_expiry",
            "shared_subscription_group",
        ])
        var mqtt = MQTTConfiguration(clientID: try mqttSection.string("client_id", default: "home2mqtt"))
        mqtt.host = try mqttSection.string("host", default: "127.0.0.1")
        mqtt.port = try mqttSection.int("port", default: 1883, in: 1...65535)
        mqtt.username = try mqttSection.string("username")
        mqtt.password = try mqttSection.string("password")
        if mqtt.password != nil, mqtt.username == nil {
            throw ConfigError(key: mqttSection.keyPath("password"), "is given without mqtt.username")
        }
        mqtt.keepAlive = try mqttSection.int("keepalive", default: 30, in: 5...3600)
        mqtt.protocolVersion = try mqttSection.choice("protocol", default: ProtocolVersion.v5) == .v5 ? .v5 : .v311
        let sharedGroup = try mqttSection.string("shared_subscription_group")
        if let group = sharedGroup {
            try Self.validateTopicLevelPath(group, key: mqttSection.keyPath("shared_subscription_group"))
            guard !group.contains("/") else {
                throw ConfigError(key: mqttSection.keyPath("shared_subscription_group"), "must be one topic level (no '/'), got '\(group)'")
            }
        }
        // A session the broker keeps while the bridge is away (a broker or bridge restart), so that
        // commands sent meanwhile are carried out when it is back, unless their message expiry
        // passed; 0 is a clean session at every connect (such commands are lost). Replicas default
        // to 0: a broker queues a dead replica's share of the commands in its session until that
        // expires, where a clean session hands them to the replicas still there. docs/reliability.md.
        let sessionExpiry = try mqttSection.int(
            "session_expiry", default: sharedGroup == nil ? Self.defaultSessionExpiry : 0, in: 0...Int(UInt32.max))
        sharedSubscriptionGroup = sharedGroup
        mqtt.sessionExpiry = sessionExpiry == 0 ? nil : UInt32(sessionExpiry)
        if mqttSection.contains("tls") {
            let tls = try mqttSection.section("tls").allowing(["ca_file", "ca_path", "cert_file", "key_file", "verify_certificate"])
            let settings = MQTTTLS(
                caFile: try tls.string("ca_file"), caPath: try tls.string("ca_path"),
                certFile: try tls.string("cert_file"), keyFile: try tls.string("key_file"),
                verifyCertificate: try tls.bool("verify_certificate", default: true)
            )
            if (settings.certFile == nil) != (settings.keyFile == nil) {
                throw ConfigError(key: tls.keyPath("cert_file"), "and mqtt.tls.key_file go together: give both or neither")
            }
            if settings.caFile == nil, settings.caPath == nil {
                throw ConfigError(key: tls.keyPath("ca_file"), "is required with TLS (or ca_path): the certificate authority to trust")
            }
            // Certificates are read now, so a wrong file names its key here rather than failing
            // every connect later with a TLS error.
            for (key, file) in [("ca_file", settings.caFile), ("cert_file", settings.certFile)] {
                guard let file else { continue }
                do { try PEMCertificates.check(file) } catch { throw ConfigError(key: tls.keyPath(key), error.message) }
            }
            if let keyFile = settings.keyFile, !FileManager.default.isReadableFile(atPath: keyFile) {
                throw ConfigError(key: tls.keyPath("key_file"), "cannot read '\(keyFile)'")
            }
            mqtt.tls = settings
        }
        self.mqtt = mqtt

        let bridge = try root.section("bridge").allowing([
            "base_topic", "discovery", "discovery_prefix", "log_format", "log_level", "command_timeout", "health",
            "state_dir", "web",
        ])
        baseTopic = try bridge.string("base_topic", default: "home")
        try Self.validateTopicLevelPath(baseTopic, key: bridge.keyPath("base_topic"))
        discoveryEnabled = try bridge.bool("discovery", default: true)
        discoveryPrefix = try bridge.string("discovery_prefix", default: "homeassistant")
        try Self.validateTopicLevelPath(discoveryPrefix, key: bridge.keyPath("discovery_prefix"))
        logFormat = try bridge.choice("log_format", default: .text)
        logLevel = try bridge.choice("log_level", default: .info)
        commandTimeout = .seconds(try bridge.int("command_timeout", default: 15, in: 1...300))
        health = try HealthConfiguration(bridge.section("health"))
        web = try WebConfiguration(bridge.section("web"), health: health)
        stateDirectory = try bridge.string("state_dir", default: Self.defaultStateDirectory())
        guard stateDirectory.hasPrefix("/") else {
            throw ConfigError(key: bridge.keyPath("state_dir"), "must be an absolute path, got '\(stateDirectory)'")
        }
        mqtt.will = MQTTWill(topic: BridgeTopics(base: baseTopic).state, payload: Array("offline".utf8), qos: .atLeastOnce, retain: true)
        self.mqtt = mqtt
    }

    /// How the bridge subscribes to a command filter: shared with its replicas, if it has any.
    public func commandSubscription(_ filter: String) -> String {
        sharedSubscriptionGroup.map { "$share/\($0)/\(filter)" } ?? filter
    }

    /// The XDG state directory (`$XDG_STATE_HOME/home2mqtt`, else `~/.local/state/home2mqtt`).
    static func defaultStateDirectory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/home2mqtt" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/home2mqtt" }
        return "/var/lib/home2mqtt"
    }

    static func validateTopicLevelPath(_ topic: String, key: String) throws(ConfigError) {
        if topic.isEmpty || topic.hasPrefix("/") || topic.hasSuffix("/") || topic.contains("//")
            || topic.contains("+") || topic.contains("#") || topic.contains("\0") {
            throw ConfigError(key: key, "must be a topic like 'home' or 'house/bridge' (no wildcards, no leading or trailing '/'), got '\(topic)'")
        }
    }
}

/// `bridge.health`: the optional HTTP listener with `/healthz` and `/metrics`.
public struct HealthConfiguration: Sendable {
    public var enabled: Bool
    public var bindAddress: String
    public var port: Int

    public init(_ section: ConfigSection) throws(ConfigError) {
        let section = try section.allowing(["enabled", "bind_address", "port"])
        enabled = try section.bool("enabled", default: false)
        bindAddress = try section.string("bind_address", default: "127.0.0.1")
        port = try section.int("port", default: 9134, in: 0...65535)
    }
}
