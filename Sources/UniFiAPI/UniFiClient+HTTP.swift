#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BridgeRuntime
import JSONDocument
import NIOCore
import NIOHTTP1
import UpstreamHTTP

/// A response as the client needs it.

extension UniFiClient {
    /// One HTTP exchange; `path` starts with `/v1/` and may carry a query. The key goes in
    /// `X-API-KEY` only. Any failure other than an HTTP status is `.transport` (or `.tls`).
    /// `secretQuery`: the query names a credential (a voucher code), and is left out of the log.
    func send(
        _ method: HTTPMethod, _ path: String, body: JSONValue? = nil, maxBodySize: Int = AnswerSize.single, secretQuery: Bool = false
    ) async throws -> UpstreamResponse {
        let logged = secretQuery ? path.prefix { $0 != "?" } + "?…" : path
        var headers: HTTPHeaders = ["Accept": "application/json", "X-API-KEY": connection.apiKey]
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        do {
            let response = try await httpClient.collect(
                method, connection.apiBaseURL + path, headers: headers, body: body.map { ByteBuffer(bytes: $0.encoded()) },
                timeout: connection.requestTimeout, maxBodySize: maxBodySize)
            let status = Int(response.status.code)
            logger.debug("UniFi request", metadata: ["method": "\(method.rawValue)", "path": "\(logged)", "status": "\(status)"])
            return UpstreamResponse(response)
        } catch {
            let failure = UniFiError.mapping(error)
            logger.debug("UniFi request failed", metadata: ["method": "\(method.rawValue)", "path": "\(logged)", "error": "\(failure)"])
            throw failure
        }
    }

    /// The JSON of a 2xx answer, or the mapped error.
    func json(_ response: UpstreamResponse, what: String) throws(UniFiError) -> JSONValue {
        guard response.isSuccess else {
            throw UniFiErrorMapping.error(status: response.status, body: response.body, retryAfterHeader: response.retryAfter)
        }
        guard let value = JSONValue.parse(response.body) else {
            throw UniFiError.undecodable(what, status: response.status)
        }
        return value
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: UpstreamResponse, what: String) throws(UniFiError) -> T {
        let value = try json(response, what: what)
        do {
            return try value.decode(T.self)
        } catch {
            throw UniFiError.undecodable(what, status: response.status)
        }
    }

    /// An HTTP client for `connection`, TLS trust as its `tls` says (a pin is checked now).
    /// The caller owns it and must `shutdown()` it. Its requests' deadlines are on `clock`.
    public static func makeHTTPClient(for connection: UniFiConnection, clock: any BridgeClock = .system) async throws -> UpstreamHTTPClient {
        do {
            return try await UpstreamHTTPClient.make(baseURL: connection.controllerURL, tls: connection.tls, clock: clock)
        } catch {
            throw UniFiError.mapping(error)
        }
    }
}
