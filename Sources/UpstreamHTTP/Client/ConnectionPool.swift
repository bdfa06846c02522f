import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Kept-alive connections to the upstreams, as `ConnectionPoolStateMachine` decides (which
/// connection an exchange takes, how many, how long they stay idle): the pool tells the state
/// machine what happens and does what it answers, opening connections, sending exchanges on them,
/// closing them, failing exchanges and keeping the one timer of idle connections.
///
/// Confined to `loop`: every method runs there, and so do the connections and their handlers.
/// (`UpstreamHTTPClient` holds it in a `NIOLoopBoundBox`.)
final class ConnectionPool {
    private struct Endpoint: Hashable {
        let host: String
        let port: Int
        let isHTTPS: Bool
    }

    private typealias StateMachine = ConnectionPoolStateMachine<Endpoint, ConnectionHandler, Exchange>

    private let loop: any EventLoop
    private let tls: NIOSSLContext?
    private let connectTimeout: TimeAmount
    private var state: StateMachine
    /// Every connection made and not closed yet, busy or idle: what shut-down closes.
    private var connections: [ObjectIdentifier: any Channel] = [:]
    /// The next sweep of idle connections, while one is scheduled.
    private var sweep: Scheduled<Void>?

    init(loop: any EventLoop, tls: NIOSSLContext?, connectTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.loop = loop
        self.tls = tls
        self.connectTimeout = connectTimeout
        state = StateMachine(idleTimeout: idleTimeout)
    }

    func start(_ exchange: Exchange) {
        let endpoint = Endpoint(host: exchange.target.host, port: exchange.target.port, isHTTPS: exchange.target.isHTTPS)
        perform(state.start(
            exchange, at: endpoint, isIdempotent: exchange.head.method.isIdempotent, now: .now(),
            isOpen: { $0.channel?.isActive == true }))
    }

    /// Closes every connection; what waits or connects, and whatever is asked from now on, fails.
    func shutDown() -> EventLoopFuture<Void> {
        sweep?.cancel()
        sweep = nil
        perform(state.shutDown())
        let closing = connections.values.map { $0.close() }
        connections = [:]
        return EventLoopFuture.andAllComplete(closing, on: loop)
    }

    private func perform(_ actions: [StateMachine.Action]) {
        for action in actions {
            switch action {
            case .startOn(let connection, let exchange):
                connection.start(exchange)
            case .connect(let endpoint, let exchange):
                connect(endpoint, for: exchange)
            case .failShutDown(let exchange):
                exchange.settle(.failure(UpstreamError(.shutDown, "the HTTP client is shut down")))
            case .close(let connection):
                connection.channel?.close(promise: nil)
            case .scheduleSweep(let delay):
                sweep = loop.assumeIsolated().scheduleTask(in: delay) { [self] in
                    sweep = nil
                    perform(state.sweep(now: .now()))
                }
            }
        }
    }

    private func connect(_ endpoint: Endpoint, for exchange: Exchange) {
        let tls = endpoint.isHTTPS ? self.tls : nil
        guard !endpoint.isHTTPS || tls != nil else {
            exchange.settle(.failure(UpstreamError(.invalidURL, "https://\(endpoint.host):\(endpoint.port) with a client made for http://")))
            perform(state.connectFailed(at: endpoint, isSettled: { $0.isSettled }))
            return
        }
        let serverName = UpstreamEndpoint.isIPAddress(endpoint.host) ? nil : endpoint.host
        // The channel initializer is `@Sendable`: it reaches the pool through a check that it runs
        // on the pool's loop, as the connection's handlers do.
        let pool = NIOLoopBound(self, eventLoop: loop)
        ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls { try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName)) }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(ConnectionHandler(
                        onFree: { pool.value.freed($0, at: endpoint) }, onClosed: { pool.value.closed($0, at: endpoint, retry: $1) }))
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
            .assumeIsolated()
            .whenComplete { [self] result in
                switch result {
                case .success(let channel):
                    connections[ObjectIdentifier(channel)] = channel
                    guard let handler = try? channel.pipeline.syncOperations.handler(type: ConnectionHandler.self) else {
                        // Its pipeline is taken down already: the connection closed as it was made.
                        exchange.settle(.failure(UpstreamError(.connectionClosed, "the connection to \(endpoint.host):\(endpoint.port) closed")))
                        channel.close(promise: nil)
                        return
                    }
                    perform(state.connected(handler, at: endpoint, for: exchange, now: .now(), isSettled: { $0.isSettled }))
                case .failure(let error):
                    exchange.settle(.failure(UpstreamError(.connectFailed, "could not connect to \(endpoint.host):\(endpoint.port): \(error)")))
                    perform(state.connectFailed(at: endpoint, isSettled: { $0.isSettled }))
                }
            }
    }

    private func freed(_ connection: ConnectionHandler, at endpoint: Endpoint) {
        perform(state.freed(connection, at: endpoint, now: .now(), isSettled: { $0.isSettled }))
    }

    private func closed(_ connection: ConnectionHandler, at endpoint: Endpoint, retry: Exchange?) {
        if let channel = connection.channel { connections[ObjectIdentifier(channel)] = nil }
        retry?.retryOnFreshConnection()
        perform(state.closed(connection, at: endpoint, retry: retry, isSettled: { $0.isSettled }))
    }
}

/// The state machine tells connections apart by their handler: one to a connection.
extension ConnectionHandler: Equatable {
    static func == (lhs: ConnectionHandler, rhs: ConnectionHandler) -> Bool { lhs === rhs }
}
