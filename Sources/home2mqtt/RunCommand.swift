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
import UnixSignals
import WebPage

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the bridge until SIGTERM or SIGINT; SIGHUP reloads the configuration.")

    @OptionGroup var options: ConfigOptions

    @Option(help: "Log format: text or json (overrides bridge.log_format).")
    var logFormat: BridgeConfiguration.LogFormat?

    func run() async throws {
        let loaded: LoadedConfiguration
        do {
            loaded = try LoadedConfiguration.load(file: options.config)
        } catch {
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
        // Made before any logger: every logger of the process (the integrations' too) logs at the
        // level and in the format it holds, which `bridge/request/log_level` and a reload change.
        let logControl = LogControl(loaded.bridge, formatOverride: logFormat)
        LogSetup.bootstrap(control: logControl)
        let logger = Logger(label: "home2mqtt")
        let registry = PrometheusCollectorRegistry()
        let metrics = BridgeMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let setup: BridgeSetup
        do {
            setup = try BridgeSetup(configuration: loaded, logger: logger, metrics: metrics)
        } catch {
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
        let file = options.config
        // A reload reads the same file, through the same checks.
        let source = ConfigurationSource { () throws(ConfigError) in
            let configuration = try LoadedConfiguration.load(file: file)
            return (configuration, try BridgeSetup(configuration: configuration, logger: logger, metrics: metrics).integrations)
        }
        let bridgeConfiguration = setup.configuration.bridge
        let web = bridgeConfiguration.web
        let activity = web.enabled ? PageActivity(baseTopic: bridgeConfiguration.baseTopic) : nil
        let bridge: Bridge
        do {
            bridge = try Bridge(
                configuration: setup.configuration, integrations: setup.integrations, metrics: metrics, logger: logger,
                logControl: logControl, source: source, observer: activity)
        } catch let error as ConfigError {
            // The state directory is checked when the bridge opens it, not by check-config.
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: bridge), .init(service: ReloadOnHangup(bridge: bridge, hangups: await UnixSignalsSequence(trapping: .sighup))),
        ]
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
            // Found by asking an upstream at start (see ConfigurationChecks.checkConfigurationWithUpstream).
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
    }
}
