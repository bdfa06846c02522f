import NIOCore
import Testing
@testable import UpstreamHTTP

/// The connection pool's decisions, without a socket or a clock: endpoints are names, connections
/// numbers, exchanges names, and time is what each event says it is.
@Suite struct ConnectionPoolStateMachineTests {
    typealias Pool = ConnectionPoolStateMachine<String, Int, String>

    static let idleTimeout = TimeAmount.seconds(60)
    /// Any instant: what matters is the time between events.
    let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    static func allOpen(_: Int) -> Bool { true }
    static func noneSettled(_: String) -> Bool { false }

    /// A pool whose endpoint "pi" has `connections` connections, 1, 2 and so on, each made for an
    /// exchange of its own ("x1", "x2" …), which it carries.
    func busyPool(connections: Int = Pool.limit) -> Pool {
        var pool = Pool(idleTimeout: Self.idleTimeout)
        for n in 1...connections {
            #expect(pool.start("x\(n)", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.connect("pi", "x\(n)")])
            #expect(pool.connected(n, at: "pi", for: "x\(n)", now: t0, isSettled: Self.noneSettled) == [.startOn(n, "x\(n)")])
        }
        return pool
    }

    @Test func anExchangeWaitsOnceTheEndpointHasItsLimitOfConnections() {
        var pool = busyPool()
        #expect(pool.start("late", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [], "it waits")
        #expect(pool.start("other", at: "unifi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.connect("unifi", "other")], "the limit is the endpoint's")
    }

    @Test func aFreedConnectionGoesToTheFirstExchangeWaitingInOrder() {
        var pool = busyPool()
        for exchange in ["a", "b"] { _ = pool.start(exchange, at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) }
        #expect(pool.freed(3, at: "pi", now: t0, isSettled: Self.noneSettled) == [.startOn(3, "a")])
        #expect(pool.freed(5, at: "pi", now: t0, isSettled: Self.noneSettled) == [.startOn(5, "b")])
        #expect(pool.freed(1, at: "pi", now: t0, isSettled: Self.noneSettled) == [.scheduleSweep(in: Self.idleTimeout)], "nobody waits: idle")
    }

    /// A timeout or a cancellation settles an exchange while it waits: its turn goes to the next.
    @Test func exchangesSettledWhileTheyWaitArePassedOver() {
        var pool = busyPool()
        for exchange in ["a", "b", "c", "d"] { _ = pool.start(exchange, at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) }
        #expect(pool.freed(2, at: "pi", now: t0, isSettled: { ["a", "b"].contains($0) }) == [.startOn(2, "c")])
        #expect(pool.closed(4, at: "pi", retry: nil, isSettled: { $0 == "d" }) == [], "d was the last")
        #expect(pool.start("e", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.connect("pi", "e")], "4's place is free")
    }

    @Test func anExchangeSettledWhileItsConnectionIsMadeLeavesTheConnectionToTheNext() {
        var pool = Pool(idleTimeout: Self.idleTimeout)
        _ = pool.start("a", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen)
        #expect(pool.connected(1, at: "pi", for: "a", now: t0, isSettled: { $0 == "a" }) == [.scheduleSweep(in: Self.idleTimeout)])
        #expect(pool.start("b", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.startOn(1, "b")])
    }

    @Test func aConnectThatFailsGivesItsPlaceToTheNextExchangeWaiting() {
        var pool = busyPool()
        for exchange in ["a", "b"] { _ = pool.start(exchange, at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) }
        #expect(pool.connectFailed(at: "pi", isSettled: Self.noneSettled) == [.connect("pi", "a")])
        #expect(pool.connectFailed(at: "pi", isSettled: Self.noneSettled) == [.connect("pi", "b")])
        #expect(pool.connectFailed(at: "pi", isSettled: Self.noneSettled) == [], "nobody waits")
        #expect(pool.start("c", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.connect("pi", "c")], "one place free")
        #expect(pool.start("d", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [], "only one")
    }

    @Test func theMostRecentlyFreedIdleConnectionIsTakenAndOneNoLongerOpenPassedOver() {
        var pool = busyPool(connections: 3)
        for connection in 1...3 { _ = pool.freed(connection, at: "pi", now: t0, isSettled: Self.noneSettled) }
        #expect(pool.start("a", at: "pi", isIdempotent: true, now: t0, isOpen: { $0 != 3 }) == [.startOn(2, "a")], "3 is closing")
        #expect(pool.start("b", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.startOn(1, "b")])
        #expect(pool.start("c", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.connect("pi", "c")])
    }

    /// The server may be closing a connection idle for a while as the request arrives; only an
    /// idempotent request may be sent again then.
    @Test func aRequestThatIsNotIdempotentTakesOnlyAConnectionIdleLessThanTheReuseWindow() {
        var pool = busyPool(connections: 3)
        _ = pool.freed(1, at: "pi", now: t0, isSettled: Self.noneSettled)
        _ = pool.freed(2, at: "pi", now: t0, isSettled: Self.noneSettled)
        _ = pool.freed(3, at: "pi", now: t0 + .seconds(1), isSettled: Self.noneSettled)
        let later = t0 + Pool.reuseWindowForUnsafeRequests
        #expect(pool.start("post", at: "pi", isIdempotent: false, now: later, isOpen: Self.allOpen) == [.startOn(3, "post")])
        #expect(pool.start("login", at: "pi", isIdempotent: false, now: later, isOpen: Self.allOpen) == [.close(2), .close(1), .connect("pi", "login")])
        _ = pool.freed(3, at: "pi", now: later, isSettled: Self.noneSettled)
        let stale = later + Pool.reuseWindowForUnsafeRequests
        #expect(pool.start("get", at: "pi", isIdempotent: true, now: stale, isOpen: Self.allOpen) == [.startOn(3, "get")], "a GET takes any")
    }

    /// One timer for the pool, not one per idle connection.
    @Test func theSweepClosesOnlyExpiredIdleConnectionsAndComesBackWhenTheNextExpires() {
        var pool = busyPool(connections: 2)
        #expect(pool.freed(1, at: "pi", now: t0, isSettled: Self.noneSettled) == [.scheduleSweep(in: Self.idleTimeout)])
        _ = pool.start("u", at: "unifi", isIdempotent: true, now: t0, isOpen: Self.allOpen)
        _ = pool.connected(7, at: "unifi", for: "u", now: t0, isSettled: Self.noneSettled)
        #expect(pool.freed(7, at: "unifi", now: t0 + .seconds(20), isSettled: Self.noneSettled) == [], "the sweep is scheduled already")
        #expect(pool.sweep(now: t0 + Self.idleTimeout) == [.close(1), .scheduleSweep(in: .seconds(20))])
        #expect(pool.start("a", at: "pi", isIdempotent: true, now: t0 + .seconds(61), isOpen: Self.allOpen) == [.connect("pi", "a")], "not 1, closing")
        #expect(pool.sweep(now: t0 + .seconds(80)) == [.close(7)])
        #expect(pool.freed(2, at: "pi", now: t0 + .seconds(90), isSettled: Self.noneSettled) == [.scheduleSweep(in: Self.idleTimeout)], "no sweep was due")
    }

    @Test func aClosedConnectionsRetryGoesOutFirstOnAFreshConnection() {
        var pool = busyPool()
        for exchange in ["a", "b"] { _ = pool.start(exchange, at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) }
        #expect(pool.closed(4, at: "pi", retry: "x4", isSettled: Self.noneSettled) == [.connect("pi", "x4")])
        #expect(pool.start("c", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [], "the retry took 4's place")
        #expect(pool.closed(5, at: "pi", retry: nil, isSettled: Self.noneSettled) == [.connect("pi", "a")], "then those waiting, in order")
    }

    @Test func aClosedIdleConnectionIsNotHandedOut() {
        var pool = busyPool(connections: 2)
        _ = pool.freed(1, at: "pi", now: t0, isSettled: Self.noneSettled)
        _ = pool.freed(2, at: "pi", now: t0, isSettled: Self.noneSettled)
        #expect(pool.closed(2, at: "pi", retry: nil, isSettled: Self.noneSettled) == [])
        #expect(pool.start("a", at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.startOn(1, "a")])
    }

    @Test func shutDownFailsWhatWaitsAndEverythingAskedAfter() {
        var pool = busyPool()
        for exchange in ["a", "b"] { _ = pool.start(exchange, at: "pi", isIdempotent: true, now: t0, isOpen: Self.allOpen) }
        _ = pool.start("u", at: "unifi", isIdempotent: true, now: t0, isOpen: Self.allOpen)
        _ = pool.connected(20, at: "unifi", for: "u", now: t0, isSettled: Self.noneSettled)
        _ = pool.freed(20, at: "unifi", now: t0, isSettled: Self.noneSettled)
        #expect(pool.shutDown() == [.failShutDown("a"), .failShutDown("b")])
        #expect(pool.start("c", at: "unifi", isIdempotent: true, now: t0, isOpen: Self.allOpen) == [.failShutDown("c")], "not on idle 20")
        #expect(pool.freed(1, at: "pi", now: t0, isSettled: Self.noneSettled) == [], "not kept, no sweep")
        #expect(pool.closed(2, at: "pi", retry: "x2", isSettled: Self.noneSettled) == [.failShutDown("x2")])
        #expect(pool.closed(3, at: "pi", retry: nil, isSettled: Self.noneSettled) == [])
        #expect(pool.connected(9, at: "pi", for: "d", now: t0, isSettled: Self.noneSettled) == [.failShutDown("d"), .close(9)])
        #expect(pool.connectFailed(at: "pi", isSettled: Self.noneSettled) == [])
        #expect(pool.sweep(now: t0 + Self.idleTimeout) == [])
    }
}
