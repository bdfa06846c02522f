#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import UpstreamHTTP

/// Turns HTTP outcomes into ``UniFiError``. Pure functions: no I/O.
enum UniFiErrorMapping {
    /// The Integration API's error body.
    struct APIError: Decodable {
        let statusCode: Int?
        let statusName: String?
        let code: String?
        let message: String?
        let requestPath: String?
    }

    /// The console proxy's body for a wrong or missing key: `{"error":{"code":401,"message":"Unauthorized"}}`.
    struct ProxyError: Decodable {
        struct Inner: Decodable {
            let code: Int?
            let message: String?
        }
        let error: Inner
    }

    static func error(status: Int, body: Data, retryAfterHeader: String?) -> UniFiError {
        let api = JSONValue.decode(APIError.self, from: body)
        let proxy = JSONValue.decode(ProxyError.self, from: body)
        let apiCode = api?.code
        let controllerMessage = api?.message ?? proxy?.error.message ?? ""
        let retryAfter = RetryAfter.parse(retryAfterHeader)
        func make(_ code: UniFiError.Code, _ message: String) -> UniFiError {
            UniFiError(code, message, status: status, apiCode: apiCode, retryAfter: retryAfter)
        }
        switch status {
        case 401:
            return make(.unauthorized, "the API key was refused" + (controllerMessage.isEmpty ? "" : " (\(controllerMessage))"))
        case 404:
            return make(.notFound, controllerMessage.isEmpty ? "not found" : controllerMessage)
        case 400:
            return make(.badRequest, controllerMessage.isEmpty ? "bad request" : controllerMessage)
        case 429:
            return make(.rateLimited, controllerMessage.isEmpty ? "too many requests" : controllerMessage)
        case 500...599:
            return make(.server, controllerMessage.isEmpty ? "HTTP \(status)" : controllerMessage)
        default:
            return make(.unexpectedResponse, controllerMessage.isEmpty ? "HTTP \(status)" : controllerMessage)
        }
    }

}

extension UniFiError: UpstreamClientError {
    public init(upstreamFailure failure: UpstreamFailure) {
        let code: Code = switch failure.kind { case .untrusted: .tls; case .transport: .transport; case .undecodable: .unexpectedResponse }
        self.init(code, failure.message, status: failure.status)
        timedOut = failure.cause?.code == .timedOut
    }
}
