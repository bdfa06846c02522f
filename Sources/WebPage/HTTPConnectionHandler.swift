import NIOCore
import NIOHTTP1

/// One connection of the bridge's listener: reads each request whole (its body bounded), asks
/// `respond`, and writes the answer, keeping the connection open when the client asked to. An
/// event stream keeps the connection for itself until either side closes it.
///
/// SwiftNIO's HTTP/1 pipeline, which the upstream clients link anyway: a web framework here would
/// add megabytes to the shipped binary.
public final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPServerRequestPart
    public typealias OutboundOut = HTTPServerResponsePart

    /// Bodies beyond this are refused (413) unread: the page sends a password or a command.
    public static let maximumBodySize = 16 * 1024

    private let respond: @Sendable (WebRequest) async -> WebAnswer
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var tooLarge = false

    public init(respond: @escaping @Sendable (WebRequest) async -> WebAnswer) {
        self.respond = respond
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
            tooLarge = false
        case .body(var buffer):
            guard !tooLarge else { return }
            if body.count + buffer.readableBytes > Self.maximumBodySize {
                tooLarge = true
                body = []
            } else {
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            }
        case .end:
            guard let head else { return }
            self.head = nil
            if tooLarge {
                write(.full(.text(.payloadTooLarge, "request body too large")), for: head, context: context)
                return
            }
            let request = WebRequest(head: head, body: body, remoteAddress: context.channel.remoteAddress?.ipAddress)
            body = []
            let respond = respond
            let answer = context.eventLoop.makeFutureWithTask { await respond(request) }
            answer.assumeIsolated().whenSuccess { [self] answer in
                write(answer, for: head, context: context)
            }
        }
    }

    /// On every answer, whatever its path (the page, its script, `/events`, `/login`, `/healthz`,
    /// `/metrics`, an error): nothing sniffed as another type, no referrer sent on, and, unless
    /// the answer has a policy of its own (the page's), nothing loaded or framed from it.
    private static func secure(_ headers: inout HTTPHeaders) {
        let every = [
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
            ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"),
        ]
        for (name, value) in every where !headers.contains(name: name) { headers.add(name: name, value: value) }
    }

    private func write(_ answer: WebAnswer, for head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch answer {
        case .full(let response):
            var headers = HTTPHeaders(response.headers)
            Self.secure(&headers)
            headers.add(name: "Content-Length", value: "\(response.body.count)")
            if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: response.status, headers: headers))), promise: nil)
            if head.method != .HEAD {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))), promise: nil)
            }
            let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            guard !head.isKeepAlive else { return }
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .events(let start):
            var headers = HTTPHeaders([
                ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
            ])
            Self.secure(&headers)
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
            start(EventStreamChannel(context.channel))
        }
    }
}
