import BellasReefAPI
import BellasReefSimulator
import BridgeRuntime
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOHTTP1
import UpstreamHTTP

struct ReefFixture {
    let simulator: BellasReefSimulator
    let http: UpstreamHTTPClient
    let client: BellasReefClient

    /// Requests of every service that are neither a login nor a `/health`.
    var requestsNeedingToken: [BellasReefSimulator.RecordedRequest] {
        BellasReefSimulator.Service.allCases.flatMap { simulator.requests($0) }
            .filter { !$0.path.hasPrefix("/api/auth/") && $0.path != "/health" }
    }

    /// The core's `GET` requests to `path`.
    func coreRequests(_ path: String) -> [BellasReefSimulator.RecordedRequest] {
        simulator.requests(.core).filter { $0.path == path }
    }
}

/// An HTTP client for loopback tests, as the bridge's (redirects are not followed, refused
/// connects fail at once), on a loop of NIO's own group: the bridge's one loop is shared by
/// every bridge the test process runs, and under the full suite its latency failed the timing
/// of the token and backoff tests here.
func makeTestHTTPClient(clock: any BridgeClock = .system) throws -> UpstreamHTTPClient {
    try UpstreamHTTPClient(tls: nil, loop: MultiThreadedEventLoopGroup.singleton.next(), clock: clock)
}

/// A started simulator and a client of its three services; torn down afterwards.
func withReef(
    options: BellasReefSimulator.Options = .init(),
    outlets: [SimulatedOutlet] = SimulatedOutlet.observed,
    clientPassword: String? = nil,
    // nil: the client's deadlines are on a clock nobody moves, so that no answer fails by time
    // however loaded the machine. Timeout tests set one, on the machine's clock.
    requestTimeout: Duration? = nil,
    /// The client's wall clock, which judges its token's `exp` (the simulator's is `options.now`).
    now: @escaping @Sendable () -> Date = { Date() },
    _ body: (ReefFixture) async throws -> Void
) async throws {
    let simulator = BellasReefSimulator(options: options, outlets: outlets)
    try await simulator.start()
    let http = try makeTestHTTPClient(clock: requestTimeout == nil ? ManualClock() : .system)
    let connection = BellasReefConnection(
        coreURL: simulator.baseURL(.core), temperatureURL: simulator.baseURL(.temperature),
        outletURL: simulator.baseURL(.outlets), username: options.username,
        password: clientPassword ?? options.password, requestTimeout: requestTimeout ?? .seconds(10))
    var logger = Logger(label: "test.reef")
    logger.logLevel = .critical
    let client = BellasReefClient(connection: connection, httpClient: http, logger: logger, now: now)
    // Torn down whatever the body did, then its error (if any) is rethrown.
    var failure: (any Error)?
    do { try await body(ReefFixture(simulator: simulator, http: http, client: client)) } catch { failure = error }
    try? await http.shutdown()
    await simulator.stop()
    if let failure { throw failure }
}

/// The BellasReefError `body` threw (nil if none or another error).
func reefError(_ body: () async throws -> Void) async -> BellasReefError? {
    do {
        try await body()
        return nil
    } catch let error as BellasReefError {
        return error
    } catch {
        return nil
    }
}

/// One raw request, for checking the simulator itself.
func rawRequest(
    _ http: UpstreamHTTPClient, _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: String? = nil
) async throws -> (status: Int, headers: HTTPHeaders, body: String) {
    let response = try await http.collect(
        method, url, headers: HTTPHeaders(headers), body: body.map { ByteBuffer(string: $0) }, timeout: .seconds(20), maxBodySize: 1 << 20)
    return (Int(response.status.code), response.headers, String(buffer: response.body))
}

/// A JWT-shaped token with `exp`, for the pure tests.
func jwt(exp: Date) -> String {
    let payload = Data(#"{"sub":"bellas","exp":\#(Int(exp.timeIntervalSince1970))}"#.utf8).base64EncodedString()
        .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_")
    return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.\(payload).c2lnbmF0dXJl"
}
