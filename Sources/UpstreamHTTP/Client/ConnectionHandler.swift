import NIOCore
import NIOHTTP1

/// The last handler of an upstream connection: carries one exchange at a time, hands the answer's
/// parts to it, and tells the pool when the connection is free again or gone.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// The connection can carry the next exchange.
    private let onFree: (ConnectionHandler) -> Void
    /// The connection is closed: the pool forgets it, and sends the exchange it was carrying, if
    /// any, again on a fresh connection.
    private let onClosed: (ConnectionHandler, _ retry: Exchange?) -> Void
    private var current: Exchange?
    private var context: ChannelHandlerContext?
    /// Exchanges started on this connection so far.
    private var exchangesCarried = 0

    init(onFree: @escaping (ConnectionHandler) -> Void, onClosed: @escaping (ConnectionHandler, _ retry: Exchange?) -> Void) {
        self.onFree = onFree
        self.onClosed = onClosed
    }

    /// The connection, while this handler is in its pipeline.
    var channel: (any Channel)? { context?.channel }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Sends `exchange`'s request on this connection. On the connection's loop, when it is free.
    func start(_ exchange: Exchange) {
        guard let context else {
            exchange.settle(.failure(UpstreamError(.connectionClosed, "the connection to \(exchange.target.hostHeader) closed")))
            return
        }
        current = exchange
        exchange.connection = context.channel
        exchange.isOnReusedConnection = exchangesCarried > 0
        exchangesCarried += 1
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        if let body = exchange.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let exchange = current else {
            // An answer nobody asked for: the connection is out of step.
            context.close(promise: nil)
            return
        }
        do {
            guard try exchange.receive(unwrapInboundIn(data)) else { return }
            current = nil
            exchange.connection = nil
            if exchange.keepsConnectionAlive {
                onFree(self)
            } else {
                context.close(promise: nil)
            }
        } catch {
            exchange.settle(.failure(error))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A TLS failure, a reset or a malformed answer: the exchange fails with it, the connection
        // is done. On a kept-alive connection before this exchange's answer began, the failure is
        // left to `channelInactive`, which sends the request again: what broke may be the end of a
        // server's idle timeout, or bytes left over from the answer before (a length that lied).
        if let exchange = current, !exchange.mayRetryOnFreshConnection {
            exchange.settle(.failure(Self.upstreamError(error, from: exchange.target.hostHeader)))
        }
        context.close(promise: nil)
    }

    /// What went wrong, in this module's words where it has them; a TLS failure passes through
    /// (`UpstreamError.trustFailure` names it).
    private static func upstreamError(_ error: any Error, from host: String) -> any Error {
        switch error {
        case HTTPParserError.invalidEOFState:
            UpstreamError(.connectionClosed, "\(host) closed the connection before the answer was complete")
        case let error as HTTPParserError:
            UpstreamError(.malformedResponse, "\(host) answered with something that is not HTTP/1.1 (\(error))")
        case let error as IOError:
            UpstreamError(.connectionClosed, "\(host) broke the connection off (\(error))")
        default:
            error
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        var retry: Exchange?
        if let exchange = current {
            current = nil
            if exchange.mayRetryOnFreshConnection {
                retry = exchange
            } else {
                exchange.settle(.failure(UpstreamError(
                    .connectionClosed, "\(exchange.target.hostHeader) closed the connection before the answer was complete")))
            }
        }
        onClosed(self, retry)
        context.fireChannelInactive()
    }
}
