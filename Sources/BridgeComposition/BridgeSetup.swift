import BridgeCore
import Logging

/// Reads and checks the whole configuration and builds the enabled integrations. Nothing is
/// started here, so a bad configuration stops the start with nothing half-started.
public struct BridgeSetup {
    public let configuration: LoadedConfiguration
    public let integrations: [any Integration]

    public init(configFile: String?, logger: Logger, metrics: BridgeMetrics = BridgeMetrics()) throws(ConfigError) {
        try self.init(configuration: LoadedConfiguration.load(file: configFile), logger: logger, metrics: metrics)
    }

    /// From a configuration already loaded: `home2mqtt-demo` writes its own, in memory.
    public init(configuration: LoadedConfiguration, logger: Logger, metrics: BridgeMetrics = BridgeMetrics()) throws(ConfigError) {
        self.configuration = configuration
        let known = Set(["mqtt", "bridge", SceneTopics.configurationKey] + integrationFactories.map(\.name))
        _ = try ConfigSection(configuration.tree).allowing(known)
        var integrations: [any Integration] = []
        for factory in integrationFactories {
            let section = try configuration.section(factory.name)
            // Named in every line it logs, and in `bridge/logging`.
            var integrationLogger = logger
            integrationLogger[metadataKey: "integration"] = "\(factory.name)"
            if let integration = try factory.make(section: section, environment: IntegrationEnvironment(logger: integrationLogger, metrics: metrics)) {
                integrations.append(integration)
            }
        }
        if let scenes = try configuration.scenes(over: integrations) { integrations.append(scenes) }
        self.integrations = integrations
    }
}
