#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import NIOCore
import UpstreamHTTP

/// Turns HTTP outcomes into ``PiHoleError``. Pure functions: no I/O.
enum PiHoleErrorMapping {
    /// Which request produced the response: a 401 means different things.
    enum Context: Sendable {
        case login
        case authenticated
    }

    /// The error for a non-success `status` with `body`.
    static func error(
        status: Int,
        body: Data,
        retryAfterHeader: String?,
        context: Context
    ) -> PiHoleError {
        let envelope = JSONValue.decode(PiHoleWire.ErrorEnvelope.self, from: body)
        let key = envelope?.error?.key
        var message = envelope?.error?.message ?? envelope?.session?.message ?? ""
        if let hint = envelope?.error?.hint, !hint.isEmpty { message += message.isEmpty ? hint : " (\(hint))" }
        if message.isEmpty { message = "HTTP \(status)" }
        let retryAfter = RetryAfter.parse(retryAfterHeader)

        switch status {
        case 401:
            return PiHoleError(context == .login ? .wrongPassword : .unauthorized, message, status: status)
        case 429:
            if key == "api_seats_exceeded" {
                return PiHoleError(.seatsExceeded, message, retryAfter: retryAfter, status: status)
            }
            return PiHoleError(.rateLimited, message, retryAfter: retryAfter, status: status)
        case 400 where context == .login && message.contains("2FA"):
            return PiHoleError(.twoFactorRequired, PiHoleError.twoFactorAdvice, status: status)
        case 400:
            return PiHoleError(.badRequest, message, status: status)
        case 403:
            return PiHoleError(.forbidden, message, status: status)
        case 404:
            return PiHoleError(.notFound, message, status: status)
        case 500...599:
            return PiHoleError(.server, message, retryAfter: retryAfter, status: status)
        default:
            return PiHoleError(.unexpectedResponse, message, retryAfter: retryAfter, status: status)
        }
    }

}

extension PiHoleError: UpstreamClientError {
    /// A transport failure counts as a request that may have arrived unless it surely did not
    /// leave (no connection, no client, no URL): a login so lost may hold a seat.
    public init(upstreamFailure failure: UpstreamFailure) {
        let code: Code = switch failure.kind { case .untrusted: .tls; case .transport: .transport; case .undecodable: .unexpectedResponse }
        self.init(code, failure.message, status: failure.status)
        let unsent: [UpstreamError.Code?] = [.connectFailed, .shutDown, .invalidURL]
        requestMayHaveArrived = failure.kind == .transport && !unsent.contains(failure.cause?.code)
        timedOut = failure.cause?.code == .timedOut
    }
}
