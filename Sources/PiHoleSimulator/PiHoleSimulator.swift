#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import NIOConcurrencyHelpers
import SimulatorSupport

/// An in-process Pi-hole v6 that behaves like a real FTL v6.4.1 in the points that matter to
/// clients: string `blocking`, float countdown with automatic revert, 16 API seats,
/// login rate limiting, both 401 body shapes, 201-on-duplicate, 404-with-only-`took`,
/// lowercased domains, `not_found` for unknown paths. Records the newest requests for tests.
public final class PiHoleSimulator: Sendable {
    let core: NIOLockedValueBox<SimulatorState>
    private let listener: SimulatorListener<PiHoleSimulatorResponder>
    let clock: PiHoleSimulatorClock

    public init(
        password: String = "correct horse",
        hostName: String = "pi-sim",
        version: String = "v6.1.4",
        maxSessions: Int = 16,
        clock: PiHoleSimulatorClock = .system,
        requestLogCapacity: Int = RequestLog.defaultCapacity,
        logger: Logger? = nil
    ) {
        let core = NIOLockedValueBox(SimulatorState(
            password: password, hostName: hostName, version: version, maxSessions: maxSessions,
            requests: RequestLog(capacity: requestLogCapacity)))
        self.core = core
        self.clock = clock
        var quiet = Logger(label: "PiHoleSimulator")
        quiet.logLevel = .critical
        listener = SimulatorListener(
            name: "PiHoleSimulator", responder: PiHoleSimulatorResponder(core: core, clock: clock), logger: logger ?? quiet)
    }

    deinit {
        listener.shutDownWithoutWaiting()
    }

    // MARK: - Lifecycle

    /// Starts listening, over HTTPS with `certificate` (a Pi-hole's own is self-signed; nil: the
    /// one served before, if any), plain HTTP without. `port: 0` picks a free port the first time
    /// and reuses the same port on a later `start()` (after `stop()` or the `.down` fault).
    public func start(host: String = "127.0.0.1", port: Int = 0, certificate: ServedCertificate? = nil) async throws {
        try await listener.start(host: host, port: port, certificate: certificate)
        core.withLockedValue { if $0.fault == .down { $0.fault = nil } }
    }

    /// Stops listening and waits until the server task has ended. Sessions and data are kept.
    public func stop() async {
        await listener.stop()
    }

    /// Restarts on the same port serving `certificate`, as a Pi-hole given a new certificate
    /// does (its open connections are closed). Sessions and data are kept.
    public func restart(serving certificate: ServedCertificate) async throws {
        try await listener.restart(serving: certificate)
    }

    public var port: Int { listener.port }
    /// `http://127.0.0.1:PORT`, or `https://…` when serving a certificate.
    public var baseURL: String { listener.baseURL }
    public var isRunning: Bool { listener.isRunning }

    // MARK: - Observation

    /// The requests received, in order (auth included): the newest `requestLogCapacity`.
    public var requests: [RecordedRequest] { core.withLockedValue { $0.requests.requests } }
    /// Every request received since the start or the last `clearRequests()`, kept or not.
    public var requestTotal: Int { core.withLockedValue { $0.requests.total } }
    /// `POST /api/auth` attempts.
    public var loginCount: Int { core.withLockedValue { $0.loginCount } }
    /// Sessions not yet expired.
    public var activeSessionCount: Int {
        let now = clock.now()
        return core.withLockedValue { state in
            state.pruneSessions(now: now)
            return state.sessions.count
        }
    }
    /// The user agent of each session not yet expired (`nil`: none was sent), by seat.
    public var sessionUserAgents: [String?] {
        let now = clock.now()
        return core.withLockedValue { state in
            state.pruneSessions(now: now)
            return state.sessions.values.sorted { $0.id < $1.id }.map(\.userAgent)
        }
    }

    public var blocking: PiHoleBlockingState {
        let now = clock.now()
        return core.withLockedValue { state in
            state.settleTimer(now: now)
            return state.blockingEnabled ? .enabled : .disabled
        }
    }
    /// Seconds until a temporary blocking change reverts.
    public var timerRemaining: Double? {
        let now = clock.now()
        return core.withLockedValue { state in
            state.settleTimer(now: now)
            return state.revertAt.map { $0.timeIntervalSince(now) }
        }
    }

    /// Domains on `list` (`allow`/`deny`) of `kind` (`exact`/`regex`), in insertion order.
    public func domains(_ list: String, kind: String) -> [String] {
        core.withLockedValue { $0.domains.filter { $0.list == list && $0.kind == kind }.map(\.domain) }
    }

    public func clearRequests() {
        core.withLockedValue { $0.requests.removeAll() }
    }

    // MARK: - Control

    public func expireAllSessions() {
        core.withLockedValue { $0.sessions.removeAll() }
    }

    /// Opens a session as another client would (the web interface, Home Assistant), from the
    /// bridge's own address. - Returns: its SID, or `nil` when every seat is taken.
    @discardableResult
    public func openSession(userAgent: String?) -> String? {
        let now = clock.now()
        return core.withLockedValue { $0.openSession(now: now, isApp: false, remoteAddress: "127.0.0.1", userAgent: userAgent) }
    }

    public func setPassword(_ new: String) {
        core.withLockedValue { $0.password = new }
    }

    /// Turns two-factor authentication on (the web password then needs a TOTP code, which the
    /// simulator never accepts) with `appPassword` as an app password that skips it; `nil` turns it off.
    public func setTwoFactor(appPassword: String?) {
        core.withLockedValue { $0.appPasswordWithTwoFactor = appPassword }
    }

    /// Answers `GET /api/info/version` with `null` for core's and web's versions, as FTL does
    /// when it does not know them.
    public func setOnlyFTLVersionKnown(_ on: Bool) {
        core.withLockedValue { $0.onlyFTLVersionKnown = on }
    }

    /// Sets a fault (`nil` clears it). `.down` stops the listener; clearing it listens again
    /// on the same port.
    public func setFault(_ fault: Fault?) async throws {
        let previous = core.withLockedValue { state -> Fault? in
            defer { state.fault = fault }
            return state.fault
        }
        if fault == .down {
            await stop()
        } else if previous == .down {
            try await listener.restart()
        }
    }

    public var fault: Fault? { core.withLockedValue { $0.fault } }

    /// Sets blocking directly, as if changed on the Pi-hole itself.
    public func setBlocking(enabled: Bool, timer: Double?) {
        let now = clock.now()
        core.withLockedValue { state in
            state.blockingEnabled = enabled
            state.revertAt = timer.map { now.addingTimeInterval($0) }
        }
    }
}
