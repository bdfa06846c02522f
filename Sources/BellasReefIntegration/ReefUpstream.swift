import AsyncHTTPClient
import BellasReefAPI
import BridgeCore
import Logging
import Synchronization
import UpstreamHTTP

/// The controller's client (one token for the three services) and the metrics of each service.
final class ReefUpstream: Sendable {
    private let connection: BellasReefConnection
    private let logger: Logger
    private let metrics: [BellasReefService: UpstreamMetrics]
    /// Made on first use, so that checking a configuration opens nothing.
    private let connected = Mutex<(http: HTTPClient, api: BellasReefClient)?>(nil)
    /// Logins already counted in the core's metrics.
    private let loginsRecorded = Mutex(0)

    init(connection: BellasReefConnection, logger: Logger, metrics: BridgeMetrics) {
        self.connection = connection
        self.logger = logger
        self.metrics = Dictionary(uniqueKeysWithValues: BellasReefService.allCases.map {
            ($0, metrics.upstream(integration: ReefTopics.name, instance: $0.rawValue))
        })
    }

    /// Runs one API operation on `service`, recording its duration, outcome and any login it needed.
    @discardableResult
    func call<T: Sendable>(_ service: BellasReefService, _ operation: @Sendable (BellasReefClient) async throws -> T) async throws -> T {
        let api = client
        let result: Result<T, any Error>
        do {
            result = .success(try await metrics[service]!.measure { try await operation(api) })
        } catch {
            result = .failure(error)
        }
        let logins = await api.loginCount
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
        get async {
            guard let api = connected.withLock({ $0?.api }) else { return 0 }
            return await api.loginCount
        }
    }

    /// Releases the HTTP client; the controller keeps no session to log out of (its tokens expire).
    func shutdown() async {
        guard let http = connected.withLock({ connected in defer { connected = nil }; return connected?.http }) else { return }
        try? await http.shutdown()
    }

    private var client: BellasReefClient {
        connected.withLock { connected in
            if let connected { return connected.api }
            let http = Self.makeHTTPClient(for: connection)
            let api = BellasReefClient(connection: connection, httpClient: http, logger: logger)
            connected = (http, api)
            return api
        }
    }

    /// The one place the HTTP client is made. For `https://` URLs it trusts the system's CAs
    /// only: the upstream TLS options (a CA file, a SHA-256 pin, insecure) arrive with
    /// UpstreamHTTP's shared TLS settings and are to be passed here.
    static func makeHTTPClient(for connection: BellasReefConnection) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: connection.requestTimeout.timeAmount)
        // BellasReefClient has its own login backoff: a refused connect should fail at once
        // (as `.transport`) instead of being retried inside AsyncHTTPClient until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
