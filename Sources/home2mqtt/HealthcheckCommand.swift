import ArgumentParser
import BridgeComposition
import BridgeCore
import NIOHTTP1
import UpstreamHTTP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Asks a running bridge's `/healthz`: the probe for Docker's HEALTHCHECK and other supervisors.
struct HealthcheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 when the running bridge's /healthz says the broker is connected, 1 otherwise.")

    @OptionGroup var options: ConfigOptions

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Int = 3

    func run() async throws {
        let health: HealthConfiguration
        do {
            // Only the bridge's own sections: a probe run every 30 s need not open the upstreams' secret files.
            health = try LoadedConfiguration.loadBridgeSections(file: options.config).bridge.health
        } catch {
            writeNow("configuration error: \(error)\n", to: STDERR_FILENO)
            throw configErrorExitCode
        }
        guard health.enabled else {
            writeNow("unhealthy: bridge.health.enabled is false, so there is no /healthz to ask\n", to: STDERR_FILENO)
            throw ExitCode.failure
        }
        let url = "http://\(Self.reachableHost(health.bindAddress)):\(health.port)/healthz"
        do {
            let http = try UpstreamHTTPClient(tls: nil)
            let status: HTTPResponseStatus
            do {
                status = try await http.collect(.GET, url, headers: [:], body: nil, timeout: .seconds(Int64(timeout)), maxBodySize: 1 << 16).status
            } catch {
                try? await http.shutdown()
                throw error
            }
            try? await http.shutdown()
            guard status == .ok else {
                print("unhealthy: \(url) answered \(status.code)")
                throw ExitCode.failure
            }
            print("healthy")
        } catch let exit as ExitCode {
            throw exit
        } catch {
            print("unhealthy: \(url): \(error)")
            throw ExitCode.failure
        }
    }

    /// A wildcard bind address is reached on loopback; an IPv6 literal needs brackets in a URL.
    static func reachableHost(_ bindAddress: String) -> String {
        switch bindAddress {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "[::1]"
        default: bindAddress.contains(":") ? "[\(bindAddress)]" : bindAddress
        }
    }
}
