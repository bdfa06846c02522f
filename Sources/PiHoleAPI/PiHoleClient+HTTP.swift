import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
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

    /// An `HTTPClient` with TLS set up for `connection`: for `https`, `verifyCertificate == false`
    /// turns verification off and `caFile` adds a trust root. The caller owns it and must
    /// `shutdown()` it.
    public static func makeHTTPClient(for connection: PiHoleConnection) throws -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: connection.requestTimeout.timeAmount)
        // PiHoleClient has its own login backoff: a refused connect should fail at once
        // (as `.transport`) instead of being retried inside AsyncHTTPClient until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        if connection.baseURL.lowercased().hasPrefix("https:") {
            var tls = TLSConfiguration.makeClientConfiguration()
            if !connection.verifyCertificate {
                tls.certificateVerification = .none
            }
            if let caFile = connection.caFile {
                do {
                    let certificates = try NIOSSLCertificate.fromPEMFile(caFile)
                    tls.additionalTrustRoots = [.certificates(certificates)]
                } catch {
                    throw PiHoleError(.transport, "cannot read CA file \(caFile): \(error)")
                }
            }
            configuration.tlsConfiguration = tls
        }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }
}
