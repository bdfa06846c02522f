import ArgumentParser
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MQTT

/// How a companion command reaches the broker: the bridge's own `mqtt:` and `bridge.base_topic`
/// (from `--config` and the same `HOME2MQTT_…` environment variables), with flags on top.
/// The password never comes from a flag, where `ps` would show it.
struct BrokerOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "A home2mqtt configuration file; only its mqtt: and bridge: sections are read.")
    var config: String?

    @Option(help: "The broker's host (default 127.0.0.1, or mqtt.host).")
    var host: String?

    @Option(help: "The broker's port (default 1883, or mqtt.port).")
    var port: Int?

    @Option(help: "The MQTT user. The password comes from HOME2MQTT_MQTT__PASSWORD, HOME2MQTT_MQTT__PASSWORD_FILE or the configuration.")
    var username: String?

    @Option(help: "The bridge's base topic (default home, or bridge.base_topic).")
    var baseTopic: String?

    @Option(help: "TLS: the certificate authority to trust; turns TLS on.")
    var caFile: String?

    @Option(help: "TLS: a client certificate (with --key-file).")
    var certFile: String?

    @Option(help: "TLS: the client certificate's key.")
    var keyFile: String?

    @Flag(help: "TLS: do not check the broker's host name (for testing only).")
    var insecure = false

    /// Flags as configuration keys, laid over the file and the environment so that the bridge's
    /// own parser checks them (port range, base topic, TLS files) exactly as it checks the file.
    var overrides: [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        if let host { result.append(("mqtt.host", host)) }
        if let port { result.append(("mqtt.port", String(port))) }
        if let username { result.append(("mqtt.username", username)) }
        if let baseTopic { result.append(("bridge.base_topic", baseTopic)) }
        if let caFile { result.append(("mqtt.tls.ca_file", caFile)) }
        if let certFile { result.append(("mqtt.tls.cert_file", certFile)) }
        if let keyFile { result.append(("mqtt.tls.key_file", keyFile)) }
        if insecure { result.append(("mqtt.tls.verify_certificate", "false")) }
        return result
    }

    /// The broker connection and the bridge's topics.
    /// - Throws: `CompanionFailure.configuration` naming the key at fault.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CompanionFailure) -> CompanionEndpoint {
        let loaded: LoadedConfiguration
        do {
            loaded = try LoadedConfiguration.loadBridgeSections(file: config, environment: environment, overrides: overrides)
        } catch {
            throw .configuration("\(error)")
        }
        var mqtt = loaded.bridge.mqtt
        // Never the bridge's client id (the broker would disconnect the bridge), never its last
        // will (which says the *bridge* is offline), never a session left behind on the broker (a
        // one-off client), always MQTT 5 (response topics).
        mqtt.clientID = Self.uniqueClientID()
        mqtt.will = nil
        mqtt.sessionExpiry = nil
        mqtt.protocolVersion = .v5
        return CompanionEndpoint(mqtt: mqtt, topics: BridgeTopics(base: loaded.bridge.baseTopic))
    }

    static func uniqueClientID() -> String {
        "home2mqtt-cli-" + UUID().uuidString.prefix(8).lowercased()
    }
}

/// Where the companion connects, and the topics of the bridge it talks to.
struct CompanionEndpoint: Sendable {
    var mqtt: MQTTConfiguration
    var topics: BridgeTopics

    var brokerAddress: String { "\(mqtt.host):\(mqtt.port)" }
}
