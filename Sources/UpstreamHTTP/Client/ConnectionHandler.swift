import NIOCore
import NIOHTTP1

/// The last handler of an upstream connection: carries one exchange at a time, hands the answer's
/// parts to it, and tells the pool when the connection is free again or gone.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    /// The connection can carry the next exchange.
    private let onFree: (ConnectionHandler) -> Void
    /// The connection is closed: the pool forgets it.
    private let onClosed: (ConnectionHandler) -> Void
    private var current: Exchange?
    private var context: ChannelHandlerContext?

    init(onFree: @escaping (ConnectionHandler) -> Void, onClosed: @escaping (ConnectionHandler) -> Void) {
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
        // A TLS failure or a malformed answer: the exchange fails with it, the connection is done.
        current?.settle(.failure(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let exchange = current {
            current = nil
            exchange.settle(.failure(UpstreamError(
                .connectionClosed, "\(exchange.target.hostHeader) closed the connection before the answer was complete")))
        }
        onClosed(self)
        context.fireChannelInactive()
    }
}
