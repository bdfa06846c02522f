#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import JSONDocument
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL
import ServiceLifecycle
import TLSTestSupport

/// An in-process UniFi Network Integration API (spec 10.5.66 plus what its users report):
/// sites, ACL rules and firewall policies with pages and filters, a PUT as strict as the real
/// controller's, the console proxy's 401, over HTTPS with a certificate made at start.
/// Records every request for tests. Changes "behind the bridge's back" and faults are in
/// `UniFiSimulator+Control.swift`.
public final class UniFiSimulator: Sendable {
    private struct Server: Sendable {
        var task: Task<Void, Never>?
        var group: ServiceGroup?
        var port = 0
        var scheme = "https"
    }

    let core: NIOLockedValueBox<UniFiSimulatorState>
    private let server = NIOLockedValueBox(Server())
    private let logger: Logger
    /// The certificate served over HTTPS (made once, at the first HTTPS start).
    private let servedCertificate = NIOLockedValueBox<TestCertificate?>(nil)

    /// The one site every simulator starts with ("Default", reference `default`).
    public static let defaultSiteID = "88f7af54-98f8-306a-a1c7-c9349722b1f6"

    public init(apiKey: String = "sim-api-key", applicationVersion: String = "10.5.66", logger: Logger? = nil) {
        var state = UniFiSimulatorState(apiKey: apiKey, applicationVersion: applicationVersion)
        state.sites = [["id": .string(Self.defaultSiteID), "internalReference": "default", "name": "Default"]]
        state.rules[Self.defaultSiteID] = [:]
        core = NIOLockedValueBox(state)
        var quiet = Logger(label: "UniFiSimulator")
        quiet.logLevel = .critical
        self.logger = logger ?? quiet
    }

    deinit {
        server.withLockedValue { $0.task?.cancel() }
        servedCertificate.withLockedValue { $0?.remove() }
    }

    /// Starts listening on `host` (port 0: a free one). HTTPS serves ``certificate``.
    public func start(scheme: Scheme = .https, host: String = "127.0.0.1", port: Int = 0) async throws {
        if server.withLockedValue({ $0.task != nil }) { return }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: UniFiSimulatorResponder(core: core),
            server: try serverBuilder(scheme),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        var groupConfiguration = ServiceGroupConfiguration(services: [app], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(1)
        let group = ServiceGroup(configuration: groupConfiguration)
        let logger = self.logger
        let task = Task {
            do {
                try await group.run()
            } catch {
                logger.error("UniFiSimulator server stopped: \(error)")
            }
            continuation.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next(), boundPort != 0 else {
            task.cancel()
            await task.value
            throw UniFiSimulatorStartError(host: host, port: port)
        }
        server.withLockedValue {
            $0 = Server(task: task, group: group, port: boundPort, scheme: scheme == .https ? "https" : "http")
        }
    }

    /// Stops listening and waits until the server has ended. Data is kept.
    public func stop() async {
        let (task, group) = server.withLockedValue { server in
            defer { server = Server(port: server.port, scheme: server.scheme) }
            return (server.task, server.group)
        }
        guard let task else { return }
        await group?.triggerGracefulShutdown()
        await task.value
    }

    public var port: Int { server.withLockedValue { $0.port } }
    /// The console's URL, e.g. `https://127.0.0.1:PORT`, what a bridge is configured with.
    public var controllerURL: String { server.withLockedValue { "\($0.scheme)://127.0.0.1:\($0.port)" } }
    /// The HTTPS certificate (nil before the first HTTPS start).
    public var certificate: TestCertificate? { servedCertificate.withLockedValue { $0 } }

    private func serverBuilder(_ scheme: Scheme) throws -> HTTPServerBuilder {
        guard scheme == .https else { return .http1() }
        let certificate = try servedCertificate.withLockedValue { stored in
            if let stored { return stored }
            let made = try TestCertificate.generate(commonName: "UniFi Simulator")
            stored = made
            return made
        }
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.privateKeyPath, format: .pem)))
        return try .tls(.http1(), tlsConfiguration: tls)
    }
}

/// The simulator could not bind.
public struct UniFiSimulatorStartError: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public var description: String { "UniFiSimulator could not listen on \(host):\(port)" }
}
