import BridgeComposition
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The demo's bridge configuration, written as YAML and read by the same loader as `run`'s
/// file: what the demo runs is a real configuration, and `docs/demo.md` can show it as one.
enum DemoConfiguration {
    static let baseTopic = "home"
    /// The demo's timers stay out of a real bridge's state directory.
    static let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("home2mqtt-demo-state").path

    static func yaml(
        broker: DemoBrokerAddress, upstreams: [any RunningDemoUpstream], logLevel: BridgeConfiguration.LogLevel, page: DemoPage
    ) -> String {
        // Discovery only on the demo's own broker: on a broker that is already there, a Home
        // Assistant may be listening and would keep the demo's devices after the demo stops.
        """
        mqtt:
          host: "\(broker.host)"
          port: \(broker.port)
          client_id: home2mqtt-demo
        bridge:
          base_topic: \(baseTopic)
          discovery: \(broker.startedByDemo)
          log_level: \(logLevel.rawValue)
          state_dir: "\(stateDirectory)"
          health:
            enabled: true
            port: \(page.port)
          web:
            enabled: true
            controls: true
            password: \(DemoPage.password)

        """ + upstreams.map(\.configurationYAML).joined() + scenes
    }

    /// A scene across two of the simulators: the tablet's internet rule on and the tablet in the
    /// Strict group, together, for a while.
    static let scenes = """
        scenes:
          - name: Bedtime
            parts:
              - unifi_rule: Downtime tablet
                enabled: true
              - pihole_client: 192.168.1.20
                groups: [Strict]

        """

    static func load(_ yaml: String) throws(ConfigError) -> LoadedConfiguration {
        try LoadedConfiguration(tree: ConfigTree.parse(yaml: yaml))
    }
}
