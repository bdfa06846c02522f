import ArgumentParser
import BridgeComposition
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Prometheus
import ServiceLifecycle
import WebPage

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the bridge until SIGTERM or SIGINT.")

    @OptionGroup var options: ConfigOptions

    @Option(help: "Log format: text or json (overrides bridge.log_format).")
    var logFormat: BridgeConfiguration.LogFormat?

    func run() async throws {
        let setupLogger = Logger(label: "home2mqtt")
        let registry = PrometheusCollectorRegistry()
        let metrics = BridgeMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let setup: BridgeSetup
        do {
            setup = try BridgeSetup(configFile: options.config, logger: setupLogger, metrics: metrics)
        } catch {
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
        let bridgeConfiguration = setup.configuration.bridge
        LogSetup.bootstrap(format: logFormat ?? bridgeConfiguration.logFormat, level: bridgeConfiguration.logLevel)
        let logger = Logger(label: "home2mqtt")
        let web = bridgeConfiguration.web
        let activity = web.enabled ? BridgeActivity(baseTopic: bridgeConfiguration.baseTopic) : nil
        let bridge: Bridge
        do {
            bridge = try Bridge(
                configuration: setup.configuration, integrations: setup.integrations, metrics: metrics, logger: logger,
                activity: activity)
        } catch let error as ConfigError {
            // The state directory is checked when the bridge opens it, not by check-config.
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: bridge)]
        if bridgeConfiguration.health.enabled {
            // Last in the list: the group stops it first, so /healthz goes away before the bridge does.
            let page = activity.map { PageSetup.routes(web, health: bridgeConfiguration.health, activity: $0, bridge: bridge, logger: logger) }
            let routes = HealthRoutes(registry: registry, isHealthy: { bridge.isBrokerConnected }, page: page)
            let server = HTTPListener(
                host: bridgeConfiguration.health.bindAddress, port: bridgeConfiguration.health.port, logger: logger, respond: routes.answer)
            services.append(.init(service: server))
        }
        let group = ServiceGroup(configuration: .init(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        do {
            try await group.run()
        } catch let error as ConfigError {
            // Found by asking an upstream at start (see Integration.checkConfigurationWithUpstream).
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
    }
}
