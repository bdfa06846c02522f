import BellasReefIntegration
import BridgeCore
import PiHoleIntegration
import UniFiIntegration

enum ConfigFuzz {
    /// A configuration file, read as the bridge reads it at start (no environment, no secret
    /// files): the YAML, the bridge's own sections and every integration's.
    static func run(_ bytes: [UInt8]) {
        guard let tree = try? ConfigTree.parse(yaml: String(decoding: bytes, as: UTF8.self)),
              let configuration = try? LoadedConfiguration(tree: tree)
        else { return }
        _ = configuration.redacted
        if let section = try? configuration.section("pihole") { PiHoleIntegrationFuzzing.readConfiguration(section) }
        if let section = try? configuration.section("unifi") { UniFiIntegrationFuzzing.readConfiguration(section) }
        if let section = try? configuration.section("reef") { ReefIntegrationFuzzing.readConfiguration(section) }
    }
}
