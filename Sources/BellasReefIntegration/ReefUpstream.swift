import BellasReefAPI
import BridgeCore
import Logging
import Synchronization
import UpstreamHTTP

/// The controller's client (one token for the three services) and the metrics of each service.
final class ReefUpstream: Sendable {
    private let connection: BellasReefConnection
    private let tls: UpstreamTLS
    private let logger: Logger
    /// Its wall time judges a token's `exp`.
    private let clock: any BridgeClock
    private let metrics: [BellasReefService: UpstreamMetrics]
    /// Made on first use, so that checking a configuration opens nothing.
    private let connected = Mutex<(http: UpstreamHTTPClient, api: BellasReefClient)?>(nil)
    /// Logins already counted in the core's metrics.
    private let loginsRecorded = Mutex(0)

    init(connection: BellasReefConnection, tls: UpstreamTLS, logger: Logger, clock: any BridgeClock, metrics: BridgeMetrics) {
        self.connection = connection
        self.tls = tls
        self.logger = logger
        self.clock = clock
        self.metrics = Dictionary(uniqueKeysWithValues: BellasReefService.allCases.map {
            ($0, metrics.upstream(integration: ReefTopics.name, instance: $0.rawValue))
        })
    }

    /// Runs one API operation on `service`, recording its duration, outcome and any login it needed.
    @discardableResult
    func call<T: Sendable>(_ service: BellasReefService, _ operation: @Sendable (BellasReefClient) async throws -> T) async throws -> T {
        let api = try await client()
        let result: Result<T, any Error>
        do {
            result = .success(try await metrics[service]!.measure { try await operation(api) })
        } catch {
            if Self.isCertificateFailure(error) { await release(api) }
            result = .failure(error)
        }
        let logins = api.loginCount
        // Logins go to the core, whichever service needed the token.
        metrics[.core]!.recordLogins(loginsRecorded.withLock { recorded in
            defer { recorded = max(recorded, logins) }
            return max(0, logins - recorded)
        })
        return try result.get()
    }

    func recordAvailability(_ service: BellasReefService, _ available: Bool) {
        metrics[service]?.recordAvailability(available)
    }

    var loginCount: Int {
        connected.withLock { $0?.api.loginCount } ?? 0
    }

    /// Releases the HTTP client; the controller keeps no session to log out of (its tokens expire).
    func shutdown() async {
        guard let http = connected.withLock({ connected in defer { connected = nil }; return connected?.http }) else { return }
        try? await http.shutdown()
    }

    /// A handshake refused or a pin that does not match: the certificate may have changed.
    static func isCertificateFailure(_ error: any Error) -> Bool {
        (error as? BellasReefError)?.code == .tls || (error as? UpstreamError)?.isTrustFailure == true
    }

    /// After a certificate failure the next call makes a new client, whose probe checks a pin
    /// again and names both fingerprints, rather than failing the same way forever. (Its token
    /// goes with it: one login once the controller is trusted again.)
    private func release(_ api: BellasReefClient) async {
        let stale = connected.withLock { connected -> UpstreamHTTPClient? in
            guard let current = connected, current.api === api else { return nil }
            connected = nil
            return current.http
        }
        try? await stale?.shutdown()
    }

    /// The client, made on first use with the HTTP client of the one place below.
    private func client() async throws -> BellasReefClient {
        if let api = connected.withLock({ $0?.api }) { return api }
        let http = try await UpstreamHTTPClient.make(baseURL: connection.coreURL, tls: tls, clock: clock)
        // Another caller may have connected meanwhile: keep one client (one token).
        let (api, spare) = connected.withLock { connected -> (BellasReefClient, UpstreamHTTPClient?) in
            if let connected { return (connected.api, http) }
            let api = BellasReefClient(connection: connection, httpClient: http, logger: logger) { [clock] in clock.wallNow }
            connected = (http, api)
            return (api, nil)
        }
        try? await spare?.shutdown()
        return api
    }
}
