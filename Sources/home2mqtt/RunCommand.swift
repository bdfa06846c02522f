import ArgumentParser
import BridgeCore
import Foundation
import Logging
import ServiceLifecycle

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Run the bridge until SIGTERM or SIGINT.")

    @OptionGroup var options: ConfigOptions

    @Option(help: "Log format: text or json (overrides bridge.log_format).")
    var logFormat: BridgeConfiguration.LogFormat?

    func run() async throws {
        let setupLogger = Logger(label: "home2mqtt")
        let setup: BridgeSetup
        do {
            setup = try BridgeSetup(configFile: options.config, logger: setupLogger)
        } catch {
            FileHandle.standardError.write(Data("configuration error: \(error)\n".utf8))
            throw configErrorExitCode
        }
        let bridgeConfiguration = setup.configuration.bridge
        LogSetup.bootstrap(format: logFormat ?? bridgeConfiguration.logFormat, level: bridgeConfiguration.logLevel)
        let logger = Logger(label: "home2mqtt")
        let bridge = try Bridge(configuration: setup.configuration, integrations: setup.integrations, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: bridge)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        try await group.run()
    }
}

extension BridgeConfiguration.LogFormat: ExpressibleByArgument {}
extension BridgeConfiguration.LogLevel: ExpressibleByArgument {}
