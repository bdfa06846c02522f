import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import LoopbackSocket
import NIOConcurrencyHelpers
import NIOSSL
import ServiceLifecycle

/// A simulated appliance's HTTP or HTTPS listener on loopback, which can go away and come back
/// as the appliance does: `port: 0` picks a free port the first time, and a later start (after
/// `stop()`, a `.down` fault, or a new certificate) listens on the same port again, since a
/// bridge is configured with one URL.
public final class SimulatorListener<Responder: HTTPResponder>: Sendable where Responder.Context == BasicRequestContext {
    private struct Running: Sendable {
        var task: Task<Void, Never>?
        var group: ServiceGroup?
        var host = "127.0.0.1"
        var port = 0
        var certificate: ServedCertificate?
    }

    private let responder: Responder
    private let name: String
    private let logger: Logger
    private let running = NIOLockedValueBox(Running())
    /// While stopped, the port stays bound without listening: connections are refused, as by an
    /// appliance that is down, and no other test's listener or outgoing connection takes the port
    /// before this one comes back (seen in CI: `Address already in use` through all the retries).
    /// Released once the listener is back, which may bind beside it (both reuse the address).
    private let reservation = NIOLockedValueBox<BoundLoopbackSocket?>(nil)

    /// `name` says whose listener it is in the error a failed server logs.
    public init(name: String, responder: Responder, logger: Logger) {
        self.name = name
        self.responder = responder
        self.logger = logger
    }

    public var host: String { running.withLockedValue { $0.host } }
    public var port: Int { running.withLockedValue { $0.port } }
    public var isRunning: Bool { running.withLockedValue { $0.task != nil } }
    /// What HTTPS serves; `nil`: plain HTTP.
    public var certificate: ServedCertificate? { running.withLockedValue { $0.certificate } }
    /// `http://HOST:PORT` or `https://HOST:PORT`.
    public var baseURL: String {
        running.withLockedValue { "\($0.certificate == nil ? "http" : "https")://\($0.host):\($0.port)" }
    }

    /// Listens on `host` and `port` (0: the previous port, or a free one the first time), over
    /// HTTPS with `certificate` (nil: the previous one, if any), plain HTTP without. Does nothing
    /// if already listening.
    public func start(host: String = "127.0.0.1", port: Int = 0, certificate: ServedCertificate? = nil) async throws {
        let (alreadyRunning, previousPort, previousCertificate) = running.withLockedValue { ($0.task != nil, $0.port, $0.certificate) }
        if alreadyRunning { return }
        let bindPort = port != 0 ? port : previousPort
        let certificate = certificate ?? previousCertificate
        // A port given up a moment ago may be refused for a while (seen: `Address already in use`
        // for the Reef's services restarted with another certificate, nine such tests at once,
        // though no connection was left): a listener coming back on its port tries again for up
        // to 3 s, as TestBroker does.
        var attempt = 1
        while true {
            do {
                return try await listen(host: host, port: bindPort, certificate: certificate)
            } catch is SimulatorStartError where bindPort != 0 && attempt < 30 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func listen(host: String, port bindPort: Int, certificate: ServedCertificate?) async throws {
        let (boundPorts, announce) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: responder,
            server: try Self.server(serving: certificate),
            configuration: .init(address: .hostname(host, port: bindPort), serverName: nil),
            onServerRunning: { channel in
                announce.yield(channel.localAddress?.port ?? 0)
                announce.finish()
            },
            eventLoopGroupProvider: .shared(SimulatorEventLoop.loop),
            logger: logger)
        // A graceful shutdown closes the idle keep-alive connections too, as an appliance going
        // down (or restarting with a new certificate) does; cancellation would leave them open.
        // A slow (`.delay`) request is cut after 1 s.
        var configuration = ServiceGroupConfiguration(services: [application], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(1)
        let group = ServiceGroup(configuration: configuration)
        let (logger, name) = (self.logger, self.name)
        let failure = NIOLockedValueBox<(any Error)?>(nil)
        let task = Task(executorPreference: SimulatorEventLoop.taskExecutor) {
            do {
                try await group.run()
            } catch {
                logger.error("\(name) listener stopped: \(error)")
                failure.withLockedValue { $0 = error }
            }
            announce.finish()
        }
        var ports = boundPorts.makeAsyncIterator()
        guard let bound = await ports.next(), bound != 0 else {
            task.cancel()
            await task.value
            throw SimulatorStartError(name: name, host: host, port: bindPort, reason: failure.withLockedValue { $0 })
        }
        running.withLockedValue { $0 = Running(task: task, group: group, host: host, port: bound, certificate: certificate) }
        reservation.withLockedValue { $0 = nil }
    }

    /// Listens again where it last did, with the same certificate (after `stop()`).
    public func restart() async throws {
        try await start(host: host)
    }

    /// Stops, and listens again on the same port serving `certificate`: an appliance restarted
    /// with a new certificate. Its open connections are closed, as a restart closes them.
    public func restart(serving certificate: ServedCertificate) async throws {
        await stop()
        try await start(host: host, certificate: certificate)
    }

    /// Stops listening and waits until the server has ended.
    public func stop() async {
        let (task, group) = running.withLockedValue { running in
            defer {
                running.task = nil
                running.group = nil
            }
            return (running.task, running.group)
        }
        await group?.triggerGracefulShutdown()
        await task?.value
        let (host, port) = running.withLockedValue { ($0.host, $0.port) }
        if task != nil, host == "127.0.0.1", port != 0 {
            reservation.withLockedValue { $0 = try? BoundLoopbackSocket(port: port, reuseAddress: true) }
        }
    }

    /// Stops the server without waiting (for a simulator's `deinit`): gracefully, as `stop()`
    /// does. Cancelling it instead traps in NIO when it has accepted a connection not yet handed
    /// out (apple/swift-nio#3481), as when a test lets go of a simulator the bridge still polls.
    public func shutDownWithoutWaiting() {
        guard let group = running.withLockedValue({ $0.group }) else { return }
        Task { await group.triggerGracefulShutdown() }
    }

    private static func server(serving certificate: ServedCertificate?) throws -> HTTPServerBuilder {
        guard let certificate else { return .http1() }
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.privateKeyPath, format: .pem)))
        return try .tls(.http1(), tlsConfiguration: tls)
    }
}

/// The certificate (PEM, the chain's first) and key files an HTTPS listener serves.
public struct ServedCertificate: Sendable, Equatable {
    public let certificatePath: String
    public let privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }
}

/// A simulator could not bind.
public struct SimulatorStartError: Error, CustomStringConvertible {
    public let name: String
    public let host: String
    public let port: Int
    /// What the server said, when it said something.
    public let reason: (any Error)?
    public var description: String { "\(name) could not listen on \(host):\(port)" + (reason.map { ": \($0)" } ?? "") }
}
