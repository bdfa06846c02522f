import NIOCore

/// What `ConnectionPool` decides, as a value: which connection an exchange goes out on, when it
/// connects, waits or fails, which idle connections are closed and when to look at them again.
/// Each event is a `mutating` method that returns the actions for the pool to perform (sockets,
/// timers, exchanges); the pool reports back what came of them as further events. The time, and
/// whether a connection is still open or an exchange settled, are handed in, never looked up, so
/// that every decision is tested without a socket or a clock (`ConnectionPoolStateMachineTests`);
/// for the same reason it is generic over what an endpoint, a connection and an exchange are.
///
/// Kept-alive connections to each endpoint, at most `limit` at once; an exchange that finds none
/// free waits for the next, in order.
///
/// Servers close idle connections when they like (uvicorn after 5 s), sometimes just as a request
/// goes out on one. So an idle connection is closed after `idleTimeout`; a request that is not
/// idempotent takes only a connection that was idle less than `reuseWindowForUnsafeRequests`
/// (else a fresh one); and an idempotent one that failed on a kept-alive connection before any
/// answer came is sent once more on a fresh connection (`Exchange.mayRetryOnFreshConnection`),
/// ahead of those waiting.
struct ConnectionPoolStateMachine<Endpoint: Hashable, Connection: Equatable, Exchange> {
    enum Action {
        /// Send the exchange on the connection, which is free.
        case startOn(Connection, Exchange)
        /// Open a connection to the endpoint for the exchange; then report `connected` or `connectFailed`.
        case connect(Endpoint, Exchange)
        /// The exchange fails: the pool is shut down.
        case failShutDown(Exchange)
        /// Close the connection; its close is reported as `closed`, as any other.
        case close(Connection)
        /// Call `sweep` after this long.
        case scheduleSweep(in: TimeAmount)
    }

    // Computed: a generic type has no static stored properties.
    /// AsyncHTTPClient's default, which the bridge had until it made its own client.
    static var limit: Int { 8 }
    /// Shorter than any keep-alive timeout seen on the upstreams (uvicorn's 5 s is the shortest).
    static var reuseWindowForUnsafeRequests: TimeAmount { .seconds(2) }

    private struct IdleConnection {
        let connection: Connection
        let since: NIODeadline
    }

    private struct EndpointState {
        /// The most recently freed last.
        var idle: [IdleConnection] = []
        /// Connections open or being opened, busy or idle.
        var open = 0
        /// In the order they asked; one settled meanwhile is passed over when its turn comes.
        var waiting: [Exchange] = []
    }

    /// How long a connection may stay idle before it is closed.
    private let idleTimeout: TimeAmount
    private var endpoints: [Endpoint: EndpointState] = [:]
    /// Whether a sweep is scheduled: one for the pool, not a timer per idle connection set and
    /// cancelled with every request.
    private var sweepIsScheduled = false
    private var isShutDown = false

    init(idleTimeout: TimeAmount) {
        self.idleTimeout = idleTimeout
    }

    /// `exchange` asks for a connection to `endpoint`: it takes the most recently freed idle one it
    /// may, else a new one while the endpoint has fewer than `limit`, else it waits. An idle
    /// connection that is no longer open (`isOpen`) is passed over: the server closed it, and its
    /// close is on the way; one idle too long for a request that is not idempotent is closed.
    mutating func start(
        _ exchange: Exchange, at endpoint: Endpoint, isIdempotent: Bool, now: NIODeadline, isOpen: (Connection) -> Bool
    ) -> [Action] {
        guard !isShutDown else { return [.failShutDown(exchange)] }
        var actions: [Action] = []
        while let idle = endpoints[endpoint]?.idle.popLast() {
            guard isOpen(idle.connection) else { continue }
            if isIdempotent || now - idle.since < Self.reuseWindowForUnsafeRequests {
                actions.append(.startOn(idle.connection, exchange))
                return actions
            }
            actions.append(.close(idle.connection))
        }
        if endpoints[endpoint, default: EndpointState()].open < Self.limit {
            endpoints[endpoint, default: EndpointState()].open += 1
            actions.append(.connect(endpoint, exchange))
        } else {
            endpoints[endpoint, default: EndpointState()].waiting.append(exchange)
        }
        return actions
    }

    /// The connection opened for `exchange` is made. The exchange goes out on it, unless it was
    /// settled meanwhile (timed out, cancelled): then the connection is free for the next.
    mutating func connected(
        _ connection: Connection, at endpoint: Endpoint, for exchange: Exchange, now: NIODeadline, isSettled: (Exchange) -> Bool
    ) -> [Action] {
        guard !isShutDown else { return [.failShutDown(exchange), .close(connection)] }
        if isSettled(exchange) { return freed(connection, at: endpoint, now: now, isSettled: isSettled) }
        return [.startOn(connection, exchange)]
    }

    /// The connection opened for an exchange could not be made (the exchange has failed with
    /// that): its place goes to the next exchange waiting.
    mutating func connectFailed(at endpoint: Endpoint, isSettled: (Exchange) -> Bool) -> [Action] {
        connectionGone(at: endpoint, isSettled: isSettled)
    }

    /// `connection` carried its exchange to the end and can carry another: the first exchange
    /// still waiting takes it, or it is idle from `now` until a request takes it or `idleTimeout`
    /// has passed.
    mutating func freed(_ connection: Connection, at endpoint: Endpoint, now: NIODeadline, isSettled: (Exchange) -> Bool) -> [Action] {
        guard !isShutDown else { return [] }
        if let next = nextWaiting(at: endpoint, isSettled: isSettled) { return [.startOn(connection, next)] }
        endpoints[endpoint]?.idle.append(IdleConnection(connection: connection, since: now))
        return scheduleSweep(in: idleTimeout)
    }

    /// `connection` closed, whichever side closed it. `retry`, the exchange it was carrying, goes
    /// out again on a fresh connection, which takes the closed one's place ahead of those waiting.
    mutating func closed(_ connection: Connection, at endpoint: Endpoint, retry: Exchange?, isSettled: (Exchange) -> Bool) -> [Action] {
        endpoints[endpoint]?.idle.removeAll { $0.connection == connection }
        if let retry { return isShutDown ? [.failShutDown(retry)] : [.connect(endpoint, retry)] }
        return connectionGone(at: endpoint, isSettled: isSettled)
    }

    /// The sweep is due: the connections idle for `idleTimeout` by `now` are closed, and the next
    /// sweep comes when the next will have been.
    mutating func sweep(now: NIODeadline) -> [Action] {
        sweepIsScheduled = false
        let idleTimeout = idleTimeout
        let hasExpired = { (idle: IdleConnection) in idle.since + idleTimeout <= now }
        var actions: [Action] = []
        for (endpoint, state) in endpoints {
            actions += state.idle.filter(hasExpired).map { .close($0.connection) }
            endpoints[endpoint]?.idle.removeAll(where: hasExpired)
        }
        if let longestIdle = endpoints.values.flatMap(\.idle).map(\.since).min() {
            actions += scheduleSweep(in: longestIdle + idleTimeout - now)
        }
        return actions
    }

    /// From now on every exchange fails; those waiting fail at once. (The pool closes every
    /// connection, busy ones too, which it alone knows.)
    mutating func shutDown() -> [Action] {
        isShutDown = true
        sweepIsScheduled = false
        let waiting = endpoints.values.flatMap(\.waiting)
        endpoints = [:]
        return waiting.map { .failShutDown($0) }
    }

    /// One connection fewer, closed or never made: its place goes to the next exchange waiting.
    /// (After shut-down no endpoint is left, nor anything waiting.)
    private mutating func connectionGone(at endpoint: Endpoint, isSettled: (Exchange) -> Bool) -> [Action] {
        if let next = nextWaiting(at: endpoint, isSettled: isSettled) { return [.connect(endpoint, next)] }
        endpoints[endpoint]?.open -= 1
        return []
    }

    /// The first exchange waiting at `endpoint` that is not settled, taken from the queue with
    /// those before it, which were settled while they waited.
    private mutating func nextWaiting(at endpoint: Endpoint, isSettled: (Exchange) -> Bool) -> Exchange? {
        while let next = endpoints[endpoint]?.waiting.first {
            endpoints[endpoint]?.waiting.removeFirst()
            if !isSettled(next) { return next }
        }
        return nil
    }

    private mutating func scheduleSweep(in delay: TimeAmount) -> [Action] {
        guard !sweepIsScheduled else { return [] }
        sweepIsScheduled = true
        return [.scheduleSweep(in: delay)]
    }
}

extension ConnectionPoolStateMachine.Action: Equatable where Exchange: Equatable {}
