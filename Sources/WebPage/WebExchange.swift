import NIOHTTP1

/// One HTTP request, read whole (its body bounded by `HTTPConnectionHandler.maximumBodySize`).
public struct WebRequest: Sendable {
    public let head: HTTPRequestHead
    public let body: [UInt8]
    /// The peer's IP address, as the socket says it (never a header).
    public let remoteAddress: String?

    public init(head: HTTPRequestHead, body: [UInt8], remoteAddress: String?) {
        self.head = head
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The path without its query.
    public var path: Substring { head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "" }

    public func header(_ name: String) -> String? { head.headers.first(name: name) }

    /// The value of cookie `name`, if the request carries it.
    public func cookie(_ name: String) -> String? {
        for header in head.headers[canonicalForm: "Cookie"] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces == name { return String(parts[1].trimmingSpaces) }
            }
        }
        return nil
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// What a route answers: a whole response, or a stream of server-sent events that the route's
/// `start` feeds through the channel it is handed once the response head went out.
public enum WebAnswer: Sendable {
    case full(WebResponse)
    case events(@Sendable (EventStreamChannel) -> Void)
}

public struct WebResponse: Sendable {
    public var status: HTTPResponseStatus
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(_ status: HTTPResponseStatus, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    public static func text(_ status: HTTPResponseStatus, _ text: String) -> WebResponse {
        WebResponse(status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
    }
}
