#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import PlainText
import UpstreamHTTP

/// Turns HTTP outcomes into ``BellasReefError``. Pure functions: no I/O.
enum BellasReefErrorMapping {
    /// Which request produced the response: a 401 or a plain-text 500 means different things.
    enum Context: Sendable, Equatable {
        /// `POST /api/auth/login` or `/api/auth/refresh`.
        case login
        /// A request sent with a token.
        case authenticated
        /// The one retry after the token was refused: the core answers a request it cannot tie
        /// to a user with a plain-text 500, so here that is an auth problem, not a server fault.
        case retryAfterTokenProblem
    }

    /// The error for a non-success `status` with `body`.
    static func error(status: Int, contentType: String?, body: Data, context: Context) -> BellasReefError {
        let detail = ErrorDetail.parse(contentType: contentType, body: body)
        let message = detail.message.isEmpty ? "HTTP \(status)" : detail.message

        if let code = detail.code, let mapped = outletCodes[code] {
            return BellasReefError(mapped, message, controllerCode: code, status: status)
        }
        let code: BellasReefError.Code
        switch status {
        case 401:
            code = context == .login ? .wrongCredentials : .unauthorized
        case 400, 422:
            code = .badRequest
        case 404:
            code = .notFound
        case 500 where detail.isPlainText && context == .retryAfterTokenProblem:
            code = .unauthorized
        case 500...599:
            code = .server
        default:
            code = .unexpectedResponse
        }
        return BellasReefError(code, message, controllerCode: detail.code, status: status)
    }

    /// The smart-outlet service's `detail.code` values.
    static let outletCodes: [String: BellasReefError.Code] = [
        "outlet_not_found": .notFound,
        "outlet_disabled": .outletDisabled,
        "outlet_connection_error": .outletConnection,
        "outlet_timeout": .outletTimeout,
    ]

}

extension BellasReefError: UpstreamClientError {
    public init(upstreamFailure failure: UpstreamFailure) {
        let code: Code = switch failure.kind { case .untrusted: .tls; case .transport: .transport; case .undecodable: .unexpectedResponse }
        self.init(code, failure.message, status: failure.status)
        timedOut = failure.cause?.code == .timedOut
    }
}

/// The `detail` of a FastAPI error in its three shapes, or a plain-text body.
struct ErrorDetail: Equatable {
    var code: String?
    var message: String
    var isPlainText: Bool

    /// Longest piece of a non-JSON body kept in a message.
    static let plainTextLimit = 200

    static func parse(contentType: String?, body: Data) -> ErrorDetail {
        let isJSON = contentType?.lowercased().contains("json") ?? true
        if isJSON, let envelope = JSONValue.decode(Envelope.self, from: body) {
            switch envelope.detail {
            case .text(let text):
                return ErrorDetail(code: nil, message: text, isPlainText: false)
            case .coded(let code, let message):
                return ErrorDetail(code: code, message: message ?? "", isPlainText: false)
            case .validation(let items):
                return ErrorDetail(code: nil, message: items.map(\.summary).joined(separator: "; "), isPlainText: false)
            case nil:
                return ErrorDetail(code: nil, message: "", isPlainText: false)
            }
        }
        let text = String(decoding: body, as: UTF8.self).trimmed()
        return ErrorDetail(code: nil, message: String(text.prefix(plainTextLimit)), isPlainText: true)
    }

    struct Envelope: Decodable {
        let detail: Detail?
    }

    enum Detail: Decodable {
        case text(String)
        case coded(code: String, message: String?)
        case validation([ValidationItem])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let items = try? container.decode([ValidationItem].self) {
                self = .validation(items)
            } else {
                let coded = try container.decode(Coded.self)
                self = .coded(code: coded.code, message: coded.message)
            }
        }
    }

    struct Coded: Decodable {
        let code: String
        let message: String?
    }

    /// One entry of a 422 list: `{"type","loc","msg","input","ctx"}`; only `msg` matters here.
    struct ValidationItem: Decodable {
        let loc: [LocationPart]?
        let msg: String

        var summary: String {
            guard let loc, !loc.isEmpty else { return msg }
            return loc.map(\.text).joined(separator: ".") + ": " + msg
        }
    }

    /// `loc` mixes strings and list indices.
    enum LocationPart: Decodable {
        case name(String)
        case index(Int)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let index = try? container.decode(Int.self) {
                self = .index(index)
            } else {
                self = .name(try container.decode(String.self))
            }
        }

        var text: String {
            switch self {
            case .name(let name): return name
            case .index(let index): return String(index)
            }
        }
    }
}
