import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Kept-alive connections to each upstream endpoint (host and port), at most `limit` at once;
/// an exchange that finds none free waits for the next, in order.
///
/// Servers close idle connections when they like (uvicorn after 5 s), sometimes just as a request
/// goes out on one. So an idle connection is closed after `idleTimeout`; a request that is not
/// idempotent takes only a connection that was idle less than `reuseWindowForUnsafeRequests`
/// (else a fresh one); and an idempotent one that failed on a kept-alive connection before any
/// answer came is sent once more on a fresh connection (`Exchange.mayRetryOnFreshConnection`).
///
/// Confined to `loop`: every method runs there, and so do the connections and their handlers.
/// (`@unchecked Sendable` so that the client can hand exchanges to it from any task.)
final class ConnectionPool: @unchecked Sendable {
    private struct Key: Hashable {
        let host: String
        let port: Int
        let isHTTPS: Bool
    }

    private struct IdleConnection {
        let handler: ConnectionHandler
        let since: NIODeadline
    }

    private struct Endpoint {
        var idle: [IdleConnection] = []
        var open = 0
        var waiting: [Exchange] = []
    }

    let loop: any EventLoop
    private let tls: NIOSSLContext?
    private let connectTimeout: TimeAmount
    /// AsyncHTTPClient's default, which the bridge had until it made its own client.
    static let limit = 8
    /// How long a connection may stay idle before it is closed.
    private let idleTimeout: TimeAmount
    /// Shorter than any keep-alive timeout seen on the upstreams (uvicorn's 5 s is the shortest).
    static let reuseWindowForUnsafeRequests = TimeAmount.seconds(2)
    private var endpoints: [Key: Endpoint] = [:]
    private var connections: [ObjectIdentifier: any Channel] = [:]
    private var isShutDown = false
    /// When connections are idle: the next look for those idle `idleTimeout` or longer. One timer
    /// for the pool, not one per connection set and cancelled with every request.
    private var sweep: Scheduled<Void>?

    init(loop: any EventLoop, tls: NIOSSLContext?, connectTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.idleTimeout = idleTimeout
        self.loop = loop
        self.tls = tls
        self.connectTimeout = connectTimeout
    }

    /// Runs `body` on the loop: at once when called there (a bridge task), else as its next job.
    func onLoop(_ body: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { body() } else { loop.execute(body) }
    }

    func start(_ exchange: Exchange) {
        loop.preconditionInEventLoop()
        guard !isShutDown else {
            exchange.settle(.failure(UpstreamError(.shutDown, "the HTTP client is shut down")))
            return
        }
        let key = Key(host: exchange.target.host, port: exchange.target.port, isHTTPS: exchange.target.isHTTPS)
        if let free = takeIdle(key, for: exchange) {
            free.start(exchange)
        } else if endpoints[key, default: Endpoint()].open < Self.limit {
            endpoints[key, default: Endpoint()].open += 1
            connect(key, for: exchange)
        } else {
            endpoints[key, default: Endpoint()].waiting.append(exchange)
        }
    }

    /// Closes every connection; what waits or connects, and whatever is asked from now on, fails.
    func shutDown() -> EventLoopFuture<Void> {
        loop.preconditionInEventLoop()
        isShutDown = true
        sweep?.cancel()
        sweep = nil
        let waiting = endpoints.values.flatMap(\.waiting)
        endpoints = [:]
        for exchange in waiting { exchange.settle(.failure(UpstreamError(.shutDown, "the HTTP client is shut down"))) }
        let closing = connections.values.map { $0.close() }
        connections = [:]
        return EventLoopFuture.andAllComplete(closing, on: loop)
    }

    private func connect(_ key: Key, for exchange: Exchange) {
        let tls = key.isHTTPS ? self.tls : nil
        guard !key.isHTTPS || tls != nil else {
            exchange.settle(.failure(UpstreamError(.invalidURL, "https://\(key.host):\(key.port) with a client made for http://")))
            connectionGone(key)
            return
        }
        let serverName = UpstreamEndpoint.isIPAddress(key.host) ? nil : key.host
        ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls { try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName)) }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(ConnectionHandler(
                        onFree: { [self] handler in free(handler, key) }, onClosed: { [self] handler, retry in closed(handler, key, retry: retry) }))
                }
            }
            .connect(host: key.host, port: key.port)
            .assumeIsolated()
            .whenComplete { [self] result in
                switch result {
                case .success(let channel):
                    connections[ObjectIdentifier(channel)] = channel
                    guard !isShutDown, let handler = try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self) else {
                        exchange.settle(.failure(UpstreamError(.shutDown, "the HTTP client is shut down")))
                        channel.close(promise: nil)
                        return
                    }
                    if exchange.isSettled { free(handler, key) } else { handler.start(exchange) }
                case .failure(let error):
                    exchange.settle(.failure(UpstreamError(.connectFailed, "could not connect to \(key.host):\(key.port): \(error)")))
                    connectionGone(key)
                }
            }
    }

    /// The most recently freed idle connection that `exchange` may use, if any. One the server is
    /// known to have closed is not handed out; one idle too long for a request that is not
    /// idempotent is closed instead.
    private func takeIdle(_ key: Key, for exchange: Exchange) -> ConnectionHandler? {
        while let idle = endpoints[key]?.idle.popLast() {
            guard let channel = idle.handler.channel, channel.isActive else { continue }
            if exchange.head.method.isIdempotent || NIODeadline.now() - idle.since < Self.reuseWindowForUnsafeRequests {
                return idle.handler
            }
            channel.close(promise: nil)
        }
        return nil
    }

    /// A connection is free: the first exchange still waiting takes it, or it waits itself, for
    /// at most `idleTimeout`.
    private func free(_ handler: ConnectionHandler, _ key: Key) {
        guard !isShutDown else { return }
        while let next = endpoints[key]?.waiting.first {
            endpoints[key]?.waiting.removeFirst()
            if !next.isSettled {
                handler.start(next)
                return
            }
        }
        endpoints[key]?.idle.append(IdleConnection(handler: handler, since: .now()))
        sweepIdle(in: idleTimeout)
    }

    /// Closes, `delay` from now, the connections idle for `idleTimeout` by then (their close
    /// removes them), and looks again when the next will be.
    private func sweepIdle(in delay: TimeAmount) {
        guard sweep == nil, !isShutDown else { return }
        sweep = loop.assumeIsolated().scheduleTask(in: delay) { [self] in
            sweep = nil
            let now = NIODeadline.now()
            var nextDue: NIODeadline?
            for idle in endpoints.values.flatMap(\.idle) {
                let due = idle.since + idleTimeout
                if due <= now {
                    idle.handler.channel?.close(promise: nil)
                } else {
                    nextDue = min(nextDue ?? due, due)
                }
            }
            if let nextDue { sweepIdle(in: nextDue - now) }
        }
    }

    /// A connection closed; `retry`, the exchange it was carrying, goes first on a fresh one.
    private func closed(_ handler: ConnectionHandler, _ key: Key, retry: Exchange?) {
        if let channel = handler.channel { connections[ObjectIdentifier(channel)] = nil }
        endpoints[key]?.idle.removeAll { $0.handler === handler }
        if let retry {
            retry.retryOnFreshConnection()
            if isShutDown {
                retry.settle(.failure(UpstreamError(.shutDown, "the HTTP client is shut down")))
            } else {
                endpoints[key]?.waiting.insert(retry, at: 0)
            }
        }
        connectionGone(key)
    }

    /// One connection fewer (closed, or never made): an exchange still waiting gets a new one.
    private func connectionGone(_ key: Key) {
        guard !isShutDown, var endpoint = endpoints[key] else { return }
        endpoint.open -= 1
        endpoint.waiting.removeAll(where: \.isSettled)
        if !endpoint.waiting.isEmpty {
            let next = endpoint.waiting.removeFirst()
            endpoint.open += 1
            endpoints[key] = endpoint
            connect(key, for: next)
        } else {
            endpoints[key] = endpoint
        }
    }
}
