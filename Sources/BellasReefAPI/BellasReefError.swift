/// The one error type thrown by ``BellasReefClient``.
///
/// `controllerCode` and `message` carry the controller's own words when it gave them
/// (`outlet_disabled`, "The operation cannot be completed because the outlet is disabled.").
/// Neither ever contains the password or a token.
public struct BellasReefError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: Sendable, Equatable {
        /// The login was refused (401 "Incorrect username or password").
        case wrongCredentials
        /// A request was refused for its token even after one fresh login.
        case unauthorized
        /// 400 or 422 (the request was not understood).
        case badRequest
        /// 404: an unknown path, outlet (`outlet_not_found`) or probe.
        case notFound
        /// 409 `outlet_disabled`.
        case outletDisabled
        /// 503 `outlet_connection_error`: the controller could not reach the plug.
        case outletConnection
        /// 504 `outlet_timeout`: the plug did not answer in time.
        case outletTimeout
        /// Any other 5xx.
        case server
        /// Connection refused, timeout, dropped connection.
        case transport
        /// The controller's certificate was not trusted: the handshake refused it (another
        /// certificate than the pinned one, or one the CA file did not sign).
        case tls
        /// No request was made: a previous login failed and the backoff window is still open.
        case backingOff
        /// No request was made: an id that must not go into a URL (not a UUID, not a probe id).
        case invalidID
        /// No request was made: the service is turned off in the connection.
        case serviceOff
        /// Any other status, or a body that could not be understood.
        case unexpectedResponse
    }

    public let code: Code
    public let message: String
    /// The controller's error code (`detail.code`), when it gave one.
    public var controllerCode: String?
    /// HTTP status, when a response was received.
    public var status: Int?
    /// How long to wait before trying again, when known (remaining backoff).
    public var retryAfter: Duration?
    /// For `.transport`: no complete answer came within the request's time limit.
    public var timedOut = false
    /// For `.backingOff`: the code of the last failed login (credentials refused, say).
    public var lastLoginCode: Code?

    public init(
        _ code: Code, _ message: String, controllerCode: String? = nil, status: Int? = nil,
        retryAfter: Duration? = nil
    ) {
        self.code = code
        self.message = message
        self.controllerCode = controllerCode
        self.status = status
        self.retryAfter = retryAfter
    }

    public var description: String {
        var text = "Bella's Reef error \(code)"
        if let status { text += " (HTTP \(status))" }
        if let controllerCode { text += " [\(controllerCode)]" }
        if !message.isEmpty { text += ": \(message)" }
        if let retryAfter { text += " [retry after \(retryAfter)]" }
        return text
    }
}
