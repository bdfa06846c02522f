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

struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check the configuration and print it with every secret redacted; exit 78 if it is refused."
    )

    @OptionGroup var options: ConfigOptions

    func run() async throws {
        do {
            let setup = try BridgeSetup(configFile: options.config, logger: Logger(label: "home2mqtt"))
            print("configuration ok: integrations \(setup.integrations.map(\.name).joined(separator: ", "))")
            print(setup.configuration.redacted.encodedString())
            let hints = setup.integrations.flatMap { integration in integration.configurationHints.map { "\(integration.name): \($0)" } }
            if !hints.isEmpty { print((["hints:"] + hints.map { "- \($0)" }).joined(separator: "\n")) }
        } catch {
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
    }
}
