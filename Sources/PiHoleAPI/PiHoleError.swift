/// The one error type thrown by ``PiHoleClient``.
///
/// `message` carries the Pi-hole's own text when it gave one. Neither `message` nor
/// `description` ever contains the password.
public struct PiHoleError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: Sendable, Equatable {
        /// `POST /api/auth` answered 401 ("password incorrect").
        case wrongPassword
        /// `POST /api/auth` answered 400 "No 2FA token found": two-factor authentication is on and
        /// the password given is the web password, not an app password.
        case twoFactorRequired
        /// An authenticated request was answered 401 even after one fresh login.
        case unauthorized
        /// 429 `rate_limiting`: too many login attempts per second.
        case rateLimited
        /// 429 `api_seats_exceeded`: all API sessions are taken.
        case seatsExceeded
        /// 400 (`bad_request`, `body_error`, …).
        case badRequest
        /// 403 `forbidden`: the Pi-hole refuses the action, e.g. a restart or a log flush while
        /// `webserver.api.allow_destructive` is off.
        case forbidden
        /// 404: unknown path or missing item.
        case notFound
        /// A domain add was answered 201 but the item was rejected (`UNIQUE constraint failed…`).
        case duplicate
        /// 5xx.
        case server
        /// Any other status, or a body that could not be understood.
        case unexpectedResponse
        /// Connection refused, timeout, connection dropped.
        case transport
        /// Certificate trust: a pin mismatch, an unreadable CA file, a handshake refused.
        case tls
        /// No request was made: a previous login failed and the backoff window is still open.
        case backingOff
    }

    public let code: Code
    public let message: String
    /// How long to wait before trying again, when known (Retry-After or remaining backoff).
    public var retryAfter: Duration?
    /// HTTP status, when a response was received.
    public var status: Int?
    /// For `.transport`: whether the request may have reached the Pi-hole (it was sent, or being
    /// sent, when the exchange failed), as opposed to a connect that failed.
    public var requestMayHaveArrived = false
    /// For `.transport`: no complete answer came within the request's time limit.
    public var timedOut = false
    /// For `.backingOff`: the code of the last failed login (a wrong password, say).
    public var lastLoginCode: Code?

    public init(_ code: Code, _ message: String, retryAfter: Duration? = nil, status: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.status = status
    }

    /// What to do when a login meets two-factor authentication: app passwords skip it.
    public static let twoFactorAdvice =
        "two-factor authentication is on: create an app password in Settings → Web interface / API and use it as the password"

    public var description: String {
        var text = "Pi-hole error \(code)"
        if let status { text += " (HTTP \(status))" }
        if !message.isEmpty { text += ": \(message)" }
        if let retryAfter { text += " [retry after \(retryAfter)]" }
        return text
    }
}
