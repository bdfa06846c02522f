#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BridgeRuntime
import NIOCore
import NIOHTTP1
import UpstreamHTTP

extension PiHoleClient {
    /// One HTTP exchange, head and body within `timeout` (the connection's request timeout by
    /// default). The SID goes in `X-FTL-SID`, never in the URL. With `streamingSuccessBodyTo`,
    /// a 2xx body is handed over as it arrives and `UpstreamResponse.body` stays empty; any other
    /// body is collected, up to `maxBodySize` bytes. Any failure other than an HTTP status becomes `.transport`.
    func send(
        _ method: HTTPMethod, _ path: String, body: Data?, sid: String?, timeout: Duration? = nil,
        maxBodySize: Int = AnswerSize.single, streamingSuccessBodyTo handler: ResponseBodyChunks? = nil
    ) async throws -> UpstreamResponse {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let sid, !sid.isEmpty { headers.add(name: "X-FTL-SID", value: sid) }
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        do {
            let response = UpstreamResponse(try await httpClient.collect(
                method, connection.normalizedBaseURL + path, headers: headers, body: body.map { ByteBuffer(bytes: $0) },
                timeout: timeout ?? connection.requestTimeout, maxBodySize: maxBodySize, successBodyTo: handler))
            logger.debug("Pi-hole request", metadata: ["method": "\(method.rawValue)", "path": "\(path)", "status": "\(response.status)"])
            return response
        } catch {
            let failure = PiHoleError.mapping(error)
            logger.debug("Pi-hole request failed", metadata: ["method": "\(method.rawValue)", "path": "\(path)", "error": "\(failure)"])
            throw failure
        }
    }

    /// An HTTP client for `connection`, TLS trust as its `tls` says (a pin is checked now).
    /// The caller owns it and must `shutdown()` it. Its requests' deadlines are on `clock`.
    public static func makeHTTPClient(for connection: PiHoleConnection, clock: any BridgeClock = .system) async throws -> UpstreamHTTPClient {
        do {
            return try await UpstreamHTTPClient.make(baseURL: connection.baseURL, tls: connection.tls, clock: clock)
        } catch {
            throw PiHoleError(.tls, error.message)
        }
    }
}
