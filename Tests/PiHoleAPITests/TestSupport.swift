import NIOCore
import NIOHTTP1
import AsyncHTTPClient
import BridgeTestSupport
import Foundation
import Logging
import PiHoleAPI
import PiHoleSimulator

struct Fixture {
    let simulator: PiHoleSimulator
    let http: HTTPClient
    let client: PiHoleClient
    let logs: LogCapture
    let password: String
}

/// A started simulator, an HTTP client and a PiHoleClient; torn down afterwards.
func withFixture(
    password: String = "correct horse",
    clientPassword: String? = nil,
    clock: PiHoleSimulatorClock = .system,
    requestTimeout: Duration = .seconds(5),
    _ body: (Fixture) async throws -> Void
) async throws {
    let simulator = PiHoleSimulator(password: password, clock: clock)
    try await simulator.start()
    let logs = LogCapture()
    let logger = logs.logger("test.pihole")
    let connection = PiHoleConnection(
        baseURL: simulator.baseURL, password: clientPassword ?? password, requestTimeout: requestTimeout)
    let http = try await PiHoleClient.makeHTTPClient(for: connection)
    let client = PiHoleClient(connection: connection, httpClient: http, logger: logger)
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
func directLogin(_ http: HTTPClient, baseURL: String, password: String) async throws -> (Int, String) {
    var request = HTTPClientRequest(url: baseURL + "/api/auth")
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(Array(#"{"password":"\#(password)"}"#.utf8))
    let response = try await http.execute(request, timeout: .seconds(5))
    let body = try await response.body.collect(upTo: 1 << 20)
    return (Int(response.status.code), String(buffer: body))
}

/// A direct request with an optional SID header.
func directRequest(
    _ http: HTTPClient, _ method: HTTPMethod, _ url: String, sid: String? = nil, body: String? = nil
) async throws -> (Int, String) {
    var request = HTTPClientRequest(url: url)
    request.method = method
    if let sid { request.headers.add(name: "X-FTL-SID", value: sid) }
    if let body { request.body = .bytes(Array(body.utf8)) }
    let response = try await http.execute(request, timeout: .seconds(5))
    let text = try await response.body.collect(upTo: 1 << 20)
    return (Int(response.status.code), String(buffer: text))
}

func sessionID(in body: String) -> String? {
    guard let data = body.data(using: .utf8),
        let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let session = json["session"] as? [String: Any]
    else { return nil }
    return session["sid"] as? String
}
