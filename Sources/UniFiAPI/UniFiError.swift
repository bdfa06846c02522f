/// The one error type thrown by ``UniFiClient``. Never contains the API key.
public struct UniFiError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Code: Sendable, Equatable {
        /// 401 from the console's proxy: the API key was refused.
        case unauthorized
        /// 404 (`api.resource-not-found`): unknown site, rule or path.
        case notFound
        /// 400: the controller refused the request; `message` is its own text. Also a filter
        /// this client refuses to send.
        case badRequest
        /// 429; `retryAfter` when the controller said how long.
        case rateLimited
        /// 5xx.
        case server
        /// Connection refused, timeout, connection dropped.
        case transport
        /// Certificate trust: pin mismatch, unreadable CA file, failed verification.
        case tls
        /// The rule is `DERIVED` or `SYSTEM_DEFINED`: the controller does not let it be changed.
        case readOnly
        /// No site given and not exactly one, or none matches.
        case siteSelection
        /// Any other status, or a body that could not be understood.
        case unexpectedResponse
    }

    public let code: Code
    public let message: String
    /// HTTP status, when a response was received.
    public var status: Int?
    /// The controller's error code, e.g. `api.resource-not-found`.
    public var apiCode: String?
    public var retryAfter: Duration?
    /// For `.transport`: no complete answer came within the request's time limit.
    public var timedOut = false

    public init(_ code: Code, _ message: String, status: Int? = nil, apiCode: String? = nil, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.apiCode = apiCode
        self.retryAfter = retryAfter
    }

    public var description: String {
        var text = "UniFi error \(code)"
        if let status { text += " (HTTP \(status)" + (apiCode.map { " \($0)" } ?? "") + ")" }
        if !message.isEmpty { text += ": \(message)" }
        if let retryAfter { text += " [retry after \(retryAfter)]" }
        return text
    }
}
