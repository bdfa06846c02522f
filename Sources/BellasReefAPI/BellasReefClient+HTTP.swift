import PlainText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import Logging
import NIOCore
import NIOHTTP1
import UpstreamHTTP


/// What a request carries.
enum ReefRequestBody: Sendable {
    /// `application/x-www-form-urlencoded`: the login (the controller answers JSON there with 422).
    case form([(name: String, value: String)])
    case json(Data)
}

extension BellasReefClient {
    /// One HTTP exchange with `service`. The token goes only in `Authorization: Bearer`.
    /// Any failure other than an HTTP status becomes `.transport`.
    func send(
        _ service: BellasReefService, _ method: HTTPMethod, _ path: String, query: String? = nil,
        body: ReefRequestBody? = nil, token: String?, maxBodySize: Int = AnswerSize.single
    ) async throws -> UpstreamResponse {
        guard let base = connection.baseURL(of: service) else {
            throw BellasReefError(.serviceOff, "the \(service.rawValue) service is turned off")
        }
        var headers: HTTPHeaders = ["Accept": "application/json"]
        if let token { headers.add(name: "Authorization", value: "Bearer " + token) }
        var bytes: ByteBuffer?
        switch body {
        case .form(let fields):
            headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            bytes = ByteBuffer(string: Self.formEncoded(fields))
        case .json(let data):
            headers.add(name: "Content-Type", value: "application/json")
            bytes = ByteBuffer(bytes: data)
        case nil:
            break
        }
        let metadata: Logger.Metadata = ["service": "\(service.rawValue)", "method": "\(method.rawValue)", "path": "\(path)"]
        do {
            let response = try await httpClient.collect(
                method, base + path + (query.map { "?" + $0 } ?? ""), headers: headers, body: bytes,
                timeout: connection.requestTimeout, maxBodySize: maxBodySize)
            let status = Int(response.status.code)
            logger.debug("Bella's Reef request", metadata: metadata.merging(["status": "\(status)"]) { $1 })
            return UpstreamResponse(response)
        } catch {
            let failure = BellasReefError.mapping(error)
            logger.debug("Bella's Reef request failed", metadata: metadata.merging(["error": "\(failure)"]) { $1 })
            throw failure
        }
    }

    /// `application/x-www-form-urlencoded`: unreserved characters kept, space as `+`, the rest
    /// percent-encoded (a password may hold `&`, `=` or `+`).
    static func formEncoded(_ fields: [(name: String, value: String)]) -> String {
        fields.map { formEscaped($0.name) + "=" + formEscaped($0.value) }.joined(separator: "&")
    }

    /// What a form value keeps as it is: ASCII letters and digits, `-._*`, and the space
    /// (which becomes `+` afterwards).
    static func formUnescaped(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || Array("-._* ".utf8).contains(byte)
    }

    static func formEscaped(_ text: String) -> String {
        text.percentEncoded(keeping: formUnescaped).replacing(" ", with: "+")
    }

    /// Decodes a 2xx body, or maps the failure.
    func decodeSuccess<T: Decodable>(_ type: T.Type, _ response: UpstreamResponse, what: String) throws -> T {
        guard response.isSuccess else { throw failure(response) }
        guard let decoded = JSONValue.decode(T.self, from: response.body) else {
            throw BellasReefError.undecodable(what, status: response.status)
        }
        return decoded
    }

    /// A 2xx body as `read` makes it of its JSON, or the failure mapped: the outlets' own answers,
    /// read on every switch and poll, are read from the JSON by hand rather than decoded.
    func readSuccess<T>(_ response: UpstreamResponse, what: String, _ read: (JSONValue) -> T?) throws -> T {
        guard response.isSuccess else { throw failure(response) }
        guard let value = JSONValue.parse(response.body).flatMap(read) else {
            throw BellasReefError.undecodable(what, status: response.status)
        }
        return value
    }

    func failure(_ response: UpstreamResponse) -> BellasReefError {
        BellasReefErrorMapping.error(
            status: response.status, contentType: response.contentType, body: response.body, context: .authenticated)
    }
}
