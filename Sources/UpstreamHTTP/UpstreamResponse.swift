#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An upstream's answer as the API clients read it: its status, the headers they act on, and
/// its body (empty when a 2xx body was streamed to a handler instead).
public struct UpstreamResponse: Sendable {
    public let status: Int
    public let body: Data
    /// `Retry-After`, as sent: ``RetryAfter`` reads it.
    public let retryAfter: String?
    public let contentType: String?

    public var isSuccess: Bool { (200..<300).contains(status) }

    public init(status: Int, body: Data, retryAfter: String? = nil, contentType: String? = nil) {
        self.status = status
        self.body = body
        self.retryAfter = retryAfter
        self.contentType = contentType
    }

    public init(_ response: CollectedResponse) {
        self.init(
            status: Int(response.status.code), body: Data(response.body.readableBytesView),
            retryAfter: response.headers.first(name: "Retry-After"), contentType: response.headers.first(name: "Content-Type"))
    }
}
