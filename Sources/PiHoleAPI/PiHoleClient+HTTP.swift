import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import UpstreamHTTP

/// A response as the client needs it.
struct RawResponse: Sendable {
    let status: Int
    let body: Data
    let retryAfter: String?
}

extension PiHoleClient {
    /// Largest body accepted from a Pi-hole.
    static let maxBodySize = 4 << 20

    /// One HTTP exchange. The SID goes in `X-FTL-SID`, never in the URL.
    /// Any failure other than an HTTP status becomes `.transport`.
    func send(
        _ method: HTTPMethod, _ path: String, body: Data?, sid: String?, timeout: Duration? = nil
    ) async throws -> RawResponse {
        var request = HTTPClientRequest(url: connection.normalizedBaseURL + path)
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let sid, !sid.isEmpty { request.headers.add(name: "X-FTL-SID", value: sid) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let deadline = timeout ?? connection.requestTimeout
        do {
            let response = try await httpClient.execute(request, timeout: deadline.timeAmount)
            let buffer = try await response.body.collect(upTo: Self.maxBodySize)
            let status = Int(response.status.code)
            logger.debug("Pi-hole request", metadata: ["method": "\(method.rawValue)", "path": "\(path)", "status": "\(status)"])
            return RawResponse(
                status: status,
                body: Data(buffer.readableBytesView),
                retryAfter: response.headers.first(name: "Retry-After"))
        } catch {
            let failure = PiHoleErrorMapping.transport(error)
            logger.debug("Pi-hole request failed", metadata: ["method": "\(method.rawValue)", "path": "\(path)", "error": "\(failure)"])
            throw failure
        }
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
            return try await UpstreamHTTPClient.make(
                baseURL: connection.baseURL, tls: connection.tls, requestTimeout: connection.requestTimeout)
        } catch {
            throw PiHoleError(.tls, error.message)
        }
    }
}
