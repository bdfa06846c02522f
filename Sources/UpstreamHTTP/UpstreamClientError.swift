/// A failure of an exchange that no HTTP status described, as every API client has them.
public struct UpstreamFailure: Sendable {
    public enum Kind: Sendable {
        /// The upstream's certificate could not be trusted as configured.
        case untrusted
        /// Refused, timed out, closed, or not HTTP.
        case transport
        /// A success status whose body could not be read.
        case undecodable
    }

    public let kind: Kind
    public let message: String
    public let status: Int?
    /// The HTTP client's own error, when it was one.
    public let cause: UpstreamError?
}

/// What every API client's error type offers, so that one mapping turns any failure of an
/// exchange into it.
public protocol UpstreamClientError: Error {
    init(upstreamFailure: UpstreamFailure)
}

extension UpstreamClientError {
    /// Any error thrown while connecting, sending or receiving, as the client's own type: its
    /// own errors pass through, certificate-trust failures are `untrusted`, the rest is a
    /// transport failure. Cancellation stays cancellation: a `CancellationError` is returned as
    /// it is, for the caller to tell a shutdown from an unreachable upstream.
    public static func mapping(_ error: any Error) -> any Error {
        if error is Self || error is CancellationError { return error }
        if let trust = UpstreamError.trustFailure(error) {
            return Self(upstreamFailure: UpstreamFailure(kind: .untrusted, message: trust, status: nil, cause: nil))
        }
        return Self(upstreamFailure: UpstreamFailure(
            kind: .transport, message: String(describing: error), status: nil, cause: error as? UpstreamError))
    }

    /// A success status whose body could not be read as `what`.
    public static func undecodable(_ what: String, status: Int) -> Self {
        Self(upstreamFailure: UpstreamFailure(kind: .undecodable, message: "could not decode \(what)", status: status, cause: nil))
    }
}
