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

    @Flag(help: "Also ask the upstreams what only they can tell, as run does at its start: a UniFi site, a scene part's target. One that does not answer is no reason to refuse.")
    var upstream = false

    func run() async throws {
        do {
            let setup = try BridgeSetup(configFile: options.config, logger: Logger(label: "home2mqtt"))
            if upstream { try await Self.askUpstreams(setup.integrations) }
            print("configuration ok: integrations \(setup.integrations.map(\.name).joined(separator: ", "))")
            print(setup.configuration.redacted.encodedString())
            let hints = setup.integrations.flatMap { integration in ((integration as? any ConfigurationChecks)?.configurationHints ?? []).map { "\(integration.name): \($0)" } }
            if !hints.isEmpty { print((["hints:"] + hints.map { "- \($0)" }).joined(separator: "\n")) }
        } catch {
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
    }

    /// Each integration's own start check, on the bridge's event loop; then each logs out of what
    /// the checks opened (a Pi-hole session), as a bridge that stops does.
    private static func askUpstreams(_ integrations: [any Integration]) async throws(ConfigError) {
        let refusal: ConfigError? = await withTaskExecutorPreference(BridgeEventLoop.taskExecutor) {
            var refusal: ConfigError?
            do throws(ConfigError) {
                for integration in integrations { try await (integration as? any ConfigurationChecks)?.checkConfigurationWithUpstream() }
            } catch {
                refusal = error
            }
            await withDiscardingTaskGroup { group in
                for integration in integrations { group.addTask { await integration.shutdown() } }
            }
            return refusal
        }
        if let refusal { throw refusal }
    }
}
