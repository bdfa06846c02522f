import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import PiHoleAPI
import Synchronization
import UpstreamHTTP

/// One configured Pi-hole: its client (one session for the bridge's life) and what was last seen.
actor PiHoleInstance {
    let id: String
    private let connection: PiHoleConnection
    let logger: Logger
    private let metrics: UpstreamMetrics
    /// Logins already counted in `metrics`.
    private var loginsRecorded = 0
    /// Made on first use, so that checking a configuration opens nothing.
    private var connected: (http: UpstreamHTTPClient, api: PiHoleClient)?
    /// Set after a TLS failure of the client in `connected`, which may be a changed certificate:
    /// the next request makes a new client, checking a pinned certificate again, rather than
    /// failing the same way forever.
    private var reconnectNeeded = false
    /// What was last seen, under a lock of its own rather than in the actor: the integration's
    /// one publishing task reads every Pi-hole's after each command, and a hop into each actor
    /// took most of that read. Written by the actor only.
    private let seen = Mutex(PiHoleSnapshot())
    nonisolated var snapshot: PiHoleSnapshot { seen.withLock { $0 } }

    func updateSnapshot(_ change: (inout PiHoleSnapshot) -> Void) {
        seen.withLock { change(&$0) }
    }
    /// After a failed read of the host name, when to try again.
    private var descriptionRetryAt: ContinuousClock.Instant?
    /// When each of the slower reads was last tried.
    var detailsTried: [PiHoleDetailRead: ContinuousClock.Instant] = [:]
    /// The slower reads failing now, so that each failure is logged once.
    var detailErrors: [PiHoleDetailRead: String] = [:]

    /// What its requests' deadlines are measured on: the bridge's clock.
    private let clock: any BridgeClock

    /// A descriptive read that failed is retried this rarely: it must not cost a request every poll.
    static let descriptionRetryInterval: Duration = .seconds(3600)

    init(id: String, connection: PiHoleConnection, logger: Logger, metrics: UpstreamMetrics, clock: any BridgeClock) {
        self.id = id
        self.connection = connection
        self.metrics = metrics
        self.clock = clock
        var logger = logger
        logger[metadataKey: "pihole"] = "\(id)"
        self.logger = logger
    }

    /// Runs one API operation, recording its duration, outcome and any login it needed.
    func measured<T: Sendable>(_ operation: (PiHoleClient) async throws -> T) async throws -> T {
        let api = try await client()
        let result: Result<T, any Error>
        do {
            result = .success(try await metrics.measure { try await operation(api) })
        } catch {
            // Only the client that met the certificate failure is replaced: a failure reported
            // after another caller made a new one (the actor is re-entered at each await) must
            // not cost that one's session, and a second login.
            if (error as? PiHoleError)?.code == .tls, connected?.api === api { reconnectNeeded = true }
            result = .failure(error)
        }
        let logins = api.loginCount
        // No suspension between the read and the write below: concurrent operations never count a login twice.
        metrics.recordLogins(logins - loginsRecorded)
        loginsRecorded = logins
        return try result.get()
    }

    private func client() async throws -> PiHoleClient {
        if reconnectNeeded, let stale = connected {
            connected = nil
            reconnectNeeded = false
            await stale.api.logout()
            try? await stale.http.shutdown()
        }
        if let connected { return connected.api }
        let http = try await PiHoleClient.makeHTTPClient(for: connection, clock: clock)
        // Another caller may have connected while this one waited: keep one client (one session).
        if let connected {
            try? await http.shutdown()
            return connected.api
        }
        let api = PiHoleClient(connection: connection, httpClient: http, logger: logger)
        connected = (http, api)
        return api
    }

    var loginCount: Int {
        connected?.api.loginCount ?? 0
    }

    /// Re-reads the blocking state (and, once, the host name).
    @discardableResult
    func refresh() async -> PiHoleSnapshot {
        do {
            let status = try await measured { try await $0.blockingStatus() }
            updateSnapshot { $0.update(with: status, at: Date()) }
            markAvailable()
        } catch {
            markUnavailable(error)
            return snapshot
        }
        await readDescriptionIfDue()
        return snapshot
    }

    /// The host name only describes the Pi-hole: whether it is available is decided by the calls
    /// the integration needs, never by this.
    private func readDescriptionIfDue() async {
        guard snapshot.host == nil else { return }
        if let descriptionRetryAt, ContinuousClock.now < descriptionRetryAt { return }
        do {
            let host = try await measured { try await $0.hostName() }
            updateSnapshot { $0.host = host }
            descriptionRetryAt = nil
        } catch {
            descriptionRetryAt = .now + Self.descriptionRetryInterval
            logger.info("Pi-hole host name not readable (descriptive only)", metadata: ["error": "\(error)"])
        }
    }

    func setBlocking(_ enabled: Bool, timer: Int?) async throws(CommandError) -> PiHoleSnapshot {
        do {
            let status = try await measured { try await $0.setBlocking(enabled, timer: timer) }
            updateSnapshot { $0.update(with: status, at: Date()) }
            markAvailable()
            return snapshot
        } catch {
            throw commandError(error)
        }
    }

    func apply(_ change: DomainChange) async throws(CommandError) {
        do {
            switch change.action {
            case .add: try await measured { try await $0.addDomain(change.domain, to: change.list, kind: change.kind, comment: change.comment) }
            case .remove: try await measured { try await $0.removeDomain(change.domain, from: change.list, kind: change.kind) }
            }
            markAvailable()
        } catch {
            throw commandError(error)
        }
    }

    /// Logs out (bounded by the client) and releases the HTTP client.
    func shutdown() async {
        guard let connected else { return }
        await connected.api.logout()
        try? await connected.http.shutdown()
        self.connected = nil
    }

    func commandError(_ error: any Error) -> CommandError {
        if let error = error as? PiHoleError, error.leavesPiHoleReachable {
            markAvailable()
        } else {
            markUnavailable(error)
        }
        return CommandError(id, failure: error)
    }

    func markAvailable() {
        if !snapshot.available { logger.info("Pi-hole is reachable") }
        metrics.recordAvailability(true)
        updateSnapshot {
            $0.available = true
            $0.error = nil
        }
    }

    private func markUnavailable(_ error: any Error) {
        // A request cut short because the bridge is stopping says nothing of the Pi-hole.
        guard !(error is CancellationError) else { return }
        let isTLS = (error as? PiHoleError)?.code == .tls
        // Log the change, not every failed poll: a Pi-hole that is away for an hour writes one line.
        // A certificate problem is logged again when its words change: the handshake refused by a
        // pin says little, the probe of the next try names both fingerprints.
        let last = snapshot
        if last.available || last.error == nil || (isTLS && last.error != "\(error)") {
            logger.warning("Pi-hole is unavailable", metadata: ["error": "\(error)"])
        }
        metrics.recordAvailability(false)
        updateSnapshot {
            $0.available = false
            $0.error = "\(error)"
        }
    }
}

extension PiHoleError {
    /// The Pi-hole answered and refused this one request; it is still there.
    var leavesPiHoleReachable: Bool {
        [.badRequest, .notFound, .duplicate].contains(code)
    }
}
