import NIOCore
import NIOHTTP1
import BridgeRuntime
import BridgeTestSupport
import Foundation
import Logging
import PiHoleAPI
import PiHoleSimulator
import UpstreamHTTP

struct Fixture {
    let simulator: PiHoleSimulator
    let http: UpstreamHTTPClient
    let client: PiHoleClient
    let logs: LogCapture
    let password: String
}

/// A started simulator, an HTTP client and a PiHoleClient; torn down afterwards.
func withFixture(
    password: String = "correct horse",
    clientPassword: String? = nil,
    clock: PiHoleSimulatorClock = .system,
    // nil: the client's deadlines are on a clock nobody moves, so that no answer fails by time
    // however loaded the machine. Timeout tests set one, on the machine's clock.
    requestTimeout: Duration? = nil,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    _ body: (Fixture) async throws -> Void
) async throws {
    let simulator = PiHoleSimulator(password: password, clock: clock)
    try await simulator.start()
    let logs = LogCapture()
    let logger = logs.logger("test.pihole")
    let connection = PiHoleConnection(
        baseURL: simulator.baseURL, password: clientPassword ?? password, requestTimeout: requestTimeout ?? .seconds(10))
    let http = try await PiHoleClient.makeHTTPClient(for: connection, clock: requestTimeout == nil ? ManualClock() : .system)
    let client = PiHoleClient(connection: connection, httpClient: http, logger: logger, now: now)
    let fixture = Fixture(simulator: simulator, http: http, client: client, logs: logs, password: clientPassword ?? password)
    do {
        try await body(fixture)
    } catch {
        try? await http.shutdown()
        await simulator.stop()
        throw error
    }
    try await http.shutdown()
    await simulator.stop()
}

/// Runs `body` and returns the PiHoleError it threw (nil if none or another error).
func piHoleError(_ body: () async throws -> Void) async -> PiHoleError? {
    do {
        try await body()
        return nil
    } catch let error as PiHoleError {
        return error
    } catch {
        return nil
    }
}

/// A direct `POST /api/auth` without PiHoleClient.
func directLogin(_ http: UpstreamHTTPClient, baseURL: String, password: String) async throws -> (Int, String) {
    try await directRequest(
        http, .POST, baseURL + "/api/auth", body: #"{"password":"\#(password)"}"#, headers: ["Content-Type": "application/json"])
}

/// A direct request with an optional SID header.
func directRequest(
    _ http: UpstreamHTTPClient, _ method: HTTPMethod, _ url: String, sid: String? = nil, body: String? = nil, headers: HTTPHeaders = [:]
) async throws -> (Int, String) {
    var headers = headers
    if let sid { headers.add(name: "X-FTL-SID", value: sid) }
    let response = try await http.collect(
        method, url, headers: headers, body: body.map { ByteBuffer(string: $0) }, timeout: .seconds(20), maxBodySize: 1 << 20)
    return (Int(response.status.code), String(buffer: response.body))
}

func sessionID(in body: String) -> String? {
    guard let data = body.data(using: .utf8),
        let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let session = json["session"] as? [String: Any]
    else { return nil }
    return session["sid"] as? String
}
