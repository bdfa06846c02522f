import BridgeRuntime
import Foundation
import JSONDocument
import Logging
import NIOCore
import NIOHTTP1
import Testing
import UniFiAPI
import UniFiSimulator
import UpstreamHTTP

struct UniFiFixture {
    let simulator: UniFiSimulator
    let http: UpstreamHTTPClient
    let client: UniFiClient
    let site = UniFiSimulator.defaultSiteID

    /// Sends a raw request to the simulator, bypassing the client (for strictness tests).
    func direct(_ method: HTTPMethod, _ path: String, body: JSONValue? = nil, apiKey: String = "sim-api-key")
        async throws -> (status: Int, body: JSONValue?)
    {
        var headers: HTTPHeaders = ["X-API-KEY": apiKey]
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let response = try await http.collect(
            method, simulator.controllerURL + "/proxy/network/integration" + path, headers: headers,
            body: body.map { ByteBuffer(bytes: $0.encoded()) }, timeout: .seconds(20), maxBodySize: 1 << 20)
        return (Int(response.status.code), JSONValue.parse(Data(response.body.readableBytesView)))
    }
}

/// An HTTPS simulator (with the demo's rules unless `prepare` says otherwise) and a client that
/// pins its certificate; torn down afterwards.
func withUniFi(
    clientKey: String = "sim-api-key",
    // nil: the client's deadlines are on a clock nobody moves, so that no answer fails by time
    // however loaded the machine. Timeout tests set one, on the machine's clock.
    requestTimeout: Duration? = nil,
    prepare: (UniFiSimulator) -> Void = { $0.addDowntimeExamples() },
    _ body: (UniFiFixture) async throws -> Void
) async throws {
    let simulator = UniFiSimulator(apiKey: "sim-api-key")
    prepare(simulator)
    try await simulator.start()
    let certificate = try #require(simulator.certificate)
    let connection = UniFiConnection(
        controllerURL: simulator.controllerURL, apiKey: clientKey, requestTimeout: requestTimeout ?? .seconds(10),
        tls: .pinned(try CertificateFingerprint(parsing: certificate.opensslFingerprint)))
    let http = try await UniFiClient.makeHTTPClient(for: connection, clock: requestTimeout == nil ? ManualClock() : .system)
    let fixture = UniFiFixture(
        simulator: simulator, http: http, client: UniFiClient(connection: connection, httpClient: http, logger: Logger(label: "test.unifi")))
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

/// The UniFiError `body` threw (nil if none or another error).
func unifiError(_ body: () async throws -> Void) async -> UniFiError? {
    do {
        try await body()
        return nil
    } catch let error as UniFiError {
        return error
    } catch {
        Issue.record("not a UniFiError: \(error)")
        return nil
    }
}
