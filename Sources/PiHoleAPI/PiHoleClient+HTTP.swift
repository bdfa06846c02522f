import AsyncHTTPClient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore
import NIOHTTP1
import UpstreamHTTP

/// A response as the client needs it.
struct RawResponse: Sendable {
    let status: Int
    let body: Data
    let retryAfter: String?
}

extension RawResponse {
    init(_ response: CollectedResponse) {
        self.init(status: Int(response.status.code), body: Data(response.body.readableBytesView), retryAfter: response.headers.first(name: "Retry-After"))
    }
}

/// Receives a successful response's body chunk by chunk, instead of having it collected.
typealias BodyChunkHandler = @Sendable (ByteBuffer) -> Void

extension PiHoleClient {
    /// Largest body accepted from a Pi-hole.
    static let maxBodySize = 4 << 20
    /// The longest a response may stay silent. Every exchange has its own deadline (see
    /// ``send(_:_:body:sid:timeout:streamingSuccessBodyTo:)``), so this only has to let a
    /// gravity run think: building the tree of a large list prints nothing for a minute or more.
    static let longestSilence: Duration = .seconds(300)

    /// One HTTP exchange, head and body within `timeout` (the connection's request timeout by
    /// default). The SID goes in `X-FTL-SID`, never in the URL. With `streamingSuccessBodyTo`,
    /// a 2xx body is handed over as it arrives and `RawResponse.body` stays empty; any other
    /// body is collected. Any failure other than an HTTP status becomes `.transport`.
    func send(
        _ method: HTTPMethod, _ path: String, body: Data?, sid: String?, timeout: Duration? = nil,
        streamingSuccessBodyTo handler: BodyChunkHandler? = nil
    ) async throws -> RawResponse {
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let sid, !sid.isEmpty { headers.add(name: "X-FTL-SID", value: sid) }
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let url = connection.normalizedBaseURL + path, bytes = body.map { ByteBuffer(bytes: $0) }
        let deadline = timeout ?? connection.requestTimeout
        do {
            let response = if let handler {
                try await Self.streaming(method, url, headers: headers, body: bytes, within: deadline, successBodyTo: handler, http: httpClient)
            } else {
                RawResponse(try await httpClient.collect(method, url, headers: headers, body: bytes, timeout: deadline, maxBodySize: Self.maxBodySize))
            }
            logger.debug("Pi-hole request", metadata: ["method": "\(method.rawValue)", "path": "\(path)", "status": "\(response.status)"])
            return response
        } catch {
            let failure = PiHoleErrorMapping.transport(error)
            logger.debug("Pi-hole request failed", metadata: ["method": "\(method.rawValue)", "path": "\(path)", "error": "\(failure)"])
            throw failure
        }
    }

    /// A 2xx body handed to `handler` as it arrives (any other body collected), all within
    /// `limit`: AsyncHTTPClient's own deadline ends with the response head, and a stalled or
    /// endless body needs this one.
    static func streaming(
        _ method: HTTPMethod, _ url: String, headers: HTTPHeaders, body: ByteBuffer?, within limit: Duration,
        successBodyTo handler: @escaping BodyChunkHandler, http: HTTPClient
    ) async throws -> RawResponse {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers = headers
        request.body = body.map { .bytes($0) }
        let prepared = request
        try Task.checkCancellation()  // as `HTTPClient.collect`: nothing is sent for a cancelled task
        let outcome = await withTimeLimit(limit) { () -> Result<RawResponse, any Error> in
            do {
                let response = try await http.execute(prepared, timeout: limit.timeAmount)
                let status = Int(response.status.code)
                var collected = Data()
                if (200..<300).contains(status) {
                    for try await chunk in response.body { handler(chunk) }
                } else {
                    collected = Data(try await response.body.collect(upTo: Self.maxBodySize).readableBytesView)
                }
                return .success(RawResponse(status: status, body: collected, retryAfter: response.headers.first(name: "Retry-After")))
            } catch {
                return .failure(error)
            }
        }
        guard let outcome else {
            // Cancelled (a shutdown) rather than out of time: say so, as the cancelled request would.
            try Task.checkCancellation()
            throw PiHoleError(.transport, "no complete answer within \(limit)")
        }
        return try outcome.get()
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters, so that a regex or
    /// unicode domain survives as one path segment.
    public static func percentEncodePathSegment(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// An `HTTPClient` for `connection`, TLS trust as its `tls` says (a pin is checked now).
    /// The caller owns it and must `shutdown()` it.
    public static func makeHTTPClient(for connection: PiHoleConnection) async throws -> HTTPClient {
        do {
            // UpstreamHTTPClient makes its `requestTimeout` the read (silence) timeout.
            return try await UpstreamHTTPClient.make(
                baseURL: connection.baseURL, tls: connection.tls,
                requestTimeout: max(connection.requestTimeout, longestSilence))
        } catch {
            throw PiHoleError(.tls, error.message)
        }
    }
}
