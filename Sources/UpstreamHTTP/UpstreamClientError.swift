/// What every API client's error type offers, so that one mapping turns any failure of an
/// exchange into it.
public protocol UpstreamClientError: Error {
    /// The upstream's certificate could not be trusted as configured.
    static func untrusted(_ message: String) -> Self
    /// The exchange failed before an HTTP status could say anything: refused, timed out, closed,
    /// or not HTTP. `cause` is the client's own error when it was one.
    static func transportFailure(_ message: String, cause: UpstreamError?) -> Self
    /// A success status whose body could not be read as `what`.
    static func undecodable(_ what: String, status: Int) -> Self
}

extension UpstreamClientError {
    /// Any error thrown while connecting, sending or receiving, as the client's own type: its
    /// own errors pass through, certificate-trust failures are `untrusted`, the rest is a
    /// transport failure. Cancellation stays cancellation: a `CancellationError` is returned as
    /// it is, for the caller to tell a shutdown from an unreachable upstream.
    public static func mapping(_ error: any Error) -> any Error {
        if error is Self || error is CancellationError { return error }
        if let trust = UpstreamError.trustFailure(error) { return untrusted(trust) }
        return transportFailure(String(describing: error), cause: error as? UpstreamError)
    }
}
