#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// An in-process Pi-hole v6 that behaves like a real FTL v6.4.1 in the points that matter to
/// clients: string `blocking`, float countdown with automatic revert, 16 API seats,
/// login rate limiting, both 401 body shapes, 201-on-duplicate, 404-with-only-`took`,
/// lowercased domains, `not_found` for unknown paths. Records every request for tests.
public final class PiHoleSimulator: Sendable {
    private struct Server: Sendable {
        var task: Task<Void, Never>?
        var group: ServiceGroup?
        var port: Int = 0
        var host: String = "127.0.0.1"
    }

    let core: Locked<SimulatorState>
    private let server = Locked(Server())
    let clock: PiHoleSimulatorClock
    private let logger: Logger

    public init(
        password: String = "correct horse",
        hostName: String = "pi-sim",
        version: String = "v6.1.4",
        maxSessions: Int = 16,
        clock: PiHoleSimulatorClock = .system,
        logger: Logger? = nil
    ) {
        core = Locked(SimulatorState(password: password, hostName: hostName, version: version, maxSessions: maxSessions))
        self.clock = clock
        var quiet = Logger(label: "PiHoleSimulator")
        quiet.logLevel = .critical
        self.logger = logger ?? quiet
    }

    deinit {
        server.withLock { $0.task?.cancel() }
    }

    // MARK: - Lifecycle

    /// Starts listening. `port: 0` picks a free port the first time and reuses the same
    /// port on a later `start()` (after `stop()` or the `.down` fault).
    public func start(host: String = "127.0.0.1", port: Int = 0) async throws {
        let (alreadyRunning, previousPort) = server.withLock { ($0.task != nil, $0.port) }
        if alreadyRunning { return }
        let bindPort = port != 0 ? port : previousPort

        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: PiHoleSimulatorResponder(core: core, clock: clock),
            configuration: .init(address: .hostname(host, port: bindPort), serverName: nil),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        let logger = self.logger
        // A graceful shutdown closes the idle keep-alive connections too, as a Pi-hole going down
        // would; cancellation would leave them open. A slow (`.delay`) request is cut after 1 s.
        var groupConfiguration = ServiceGroupConfiguration(services: [app], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(1)
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            do {
                try await group.run()
            } catch {
                logger.error("PiHoleSimulator server stopped: \(error)")
            }
            continuation.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next(), boundPort != 0 else {
            task.cancel()
            await task.value
            throw SimulatorStartError(host: host, port: bindPort)
        }
        server.withLock {
            $0.task = task
            $0.group = group
            $0.port = boundPort
            $0.host = host
        }
        core.withLock { if $0.fault == .down { $0.fault = nil } }
    }

    /// Stops listening and waits until the server task has ended. Sessions and data are kept.
    public func stop() async {
        let (task, group) = server.withLock { server in
            defer {
                server.task = nil
                server.group = nil
            }
            return (server.task, server.group)
        }
        guard let task else { return }
        await group?.triggerGracefulShutdown()
        await task.value
    }

    public var port: Int { server.withLock { $0.port } }
    public var baseURL: String { server.withLock { "http://\($0.host):\($0.port)" } }
    public var isRunning: Bool { server.withLock { $0.task != nil } }

    // MARK: - Observation

    /// Every request received, in order (auth included).
    public var requests: [RecordedRequest] { core.withLock { $0.requests } }
    /// `POST /api/auth` attempts.
    public var loginCount: Int { core.withLock { $0.loginCount } }
    /// Sessions not yet expired.
    public var activeSessionCount: Int {
        let now = clock.now()
        return core.withLock { state in
            state.pruneSessions(now: now)
            return state.sessions.count
        }
    }
    public var blocking: PiHoleBlockingState {
        let now = clock.now()
        return core.withLock { state in
            state.settleTimer(now: now)
            return state.blockingEnabled ? .enabled : .disabled
        }
    }
    /// Seconds until a temporary blocking change reverts.
    public var timerRemaining: Double? {
        let now = clock.now()
        return core.withLock { state in
            state.settleTimer(now: now)
            return state.revertAt.map { $0.timeIntervalSince(now) }
        }
    }

    /// Domains on `list` (`allow`/`deny`) of `kind` (`exact`/`regex`), in insertion order.
    public func domains(_ list: String, kind: String) -> [String] {
        core.withLock { $0.domains.filter { $0.list == list && $0.kind == kind }.map(\.domain) }
    }

    public func clearRequests() {
        core.withLock { $0.requests.removeAll() }
    }

    // MARK: - Control

    public func expireAllSessions() {
        core.withLock { $0.sessions.removeAll() }
    }

    public func setPassword(_ new: String) {
        core.withLock { $0.password = new }
    }

    /// Turns two-factor authentication on (the web password then needs a TOTP code, which the
    /// simulator never accepts) with `appPassword` as an app password that skips it; `nil` turns it off.
    public func setTwoFactor(appPassword: String?) {
        core.withLock { $0.appPasswordWithTwoFactor = appPassword }
    }

    /// Answers `GET /api/info/version` with `null` for core's and web's versions, as FTL does
    /// when it does not know them.
    public func setOnlyFTLVersionKnown(_ on: Bool) {
        core.withLock { $0.onlyFTLVersionKnown = on }
    }

    /// Sets a fault (`nil` clears it). `.down` stops the listener; clearing it listens again
    /// on the same port.
    public func setFault(_ fault: Fault?) async throws {
        let previous = core.withLock { state -> Fault? in
            defer { state.fault = fault }
            return state.fault
        }
        if fault == .down {
            await stop()
        } else if previous == .down {
            let host = server.withLock { $0.host }
            try await start(host: host)
        }
    }

    public var fault: Fault? { core.withLock { $0.fault } }

    /// Sets blocking directly, as if changed on the Pi-hole itself.
    public func setBlocking(enabled: Bool, timer: Double?) {
        let now = clock.now()
        core.withLock { state in
            state.blockingEnabled = enabled
            state.revertAt = timer.map { now.addingTimeInterval($0) }
        }
    }
}

/// The simulator could not bind.
public struct SimulatorStartError: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public var description: String { "PiHoleSimulator could not listen on \(host):\(port)" }
}
