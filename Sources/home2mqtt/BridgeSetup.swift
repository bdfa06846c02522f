import BridgeCore
import Logging

/// Reads and checks the whole configuration and builds the enabled integrations. Nothing is
/// started here, so a bad configuration stops the start with nothing half-started.
struct BridgeSetup {
    let configuration: LoadedConfiguration
    let integrations: [any Integration]

    init(configFile: String?, logger: Logger, metrics: BridgeMetrics = BridgeMetrics()) throws(ConfigError) {
        configuration = try LoadedConfiguration.load(file: configFile)
        let known = Set(["mqtt", "bridge"] + integrationFactories.map(\.name))
        _ = try ConfigSection(configuration.tree).allowing(known)
        var integrations: [any Integration] = []
        for factory in integrationFactories {
            let section = try configuration.section(factory.name)
            if let integration = try factory.make(section: section, environment: IntegrationEnvironment(logger: logger, metrics: metrics)) {
                integrations.append(integration)
            }
        }
        self.integrations = integrations
    }
}
