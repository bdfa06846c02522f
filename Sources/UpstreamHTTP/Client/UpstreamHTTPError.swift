/// What went wrong in an exchange with an upstream before any HTTP status could say so. TLS
/// failures are not among them: NIOSSL's own errors pass through, for `UpstreamTLSError.trustFailure`.
public struct UpstreamHTTPError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case invalidURL
        case connectFailed
        case timedOut
        case connectionClosed
        case bodyTooLarge
        case shutDown
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
