import UpstreamHTTP
import Foundation
import LoopbackSocket
import Testing

@testable import PiHoleSimulator

@Suite("Simulator behaves like a real FTL v6")
struct SimulatorTests {
    @Test func errorShapesAndStatuses() async throws {
        try await withFixture { f in
            let base = f.simulator.baseURL
            // Wrong password: 401 with a session object.
            let (wrong, wrongBody) = try await directLogin(f.http, baseURL: base, password: "nope")
            #expect(wrong == 401)
            #expect(wrongBody.contains(#""session""#) && wrongBody.contains("password incorrect"))

            let (ok, okBody) = try await directLogin(f.http, baseURL: base, password: f.password)
            #expect(ok == 200)
            let sid = try #require(sessionID(in: okBody))
            #expect(sid.count == 24)

            // Dead SID: 401 error shape.
            let (dead, deadBody) = try await directRequest(f.http, .GET, base + "/api/dns/blocking", sid: "AAAAAAAAAAAAAAAAAAAAAAAA")
            #expect(dead == 401)
            #expect(deadBody.contains(#""key":"unauthorized""#))

            // blocking is a string, timer null.
            let (_, blocking) = try await directRequest(f.http, .GET, base + "/api/dns/blocking", sid: sid)
            #expect(blocking.contains(#""blocking":"enabled""#) && blocking.contains(#""timer":null"#))

            // No boolean → 400 body_error.
            let (bad, badBody) = try await directRequest(
                f.http, .POST, base + "/api/dns/blocking", sid: sid, body: #"{"blocking":"no"}"#)
            #expect(bad == 400 && badBody.contains("body_error"))

            // Unknown path → 404 not_found.
            let (unknown, unknownBody) = try await directRequest(f.http, .GET, base + "/api/nonsense", sid: sid)
            #expect(unknown == 404 && unknownBody.contains("not_found"))

            // Spaces → 400 bad_request.
            let (spaces, spacesBody) = try await directRequest(
                f.http, .POST, base + "/api/domains/allow/exact", sid: sid, body: #"{"domain":"a b.com"}"#)
            #expect(spaces == 400 && spacesBody.contains("bad_request"))

            // Delete of a missing domain → 404 with only took.
            let (missing, missingBody) = try await directRequest(
                f.http, .DELETE, base + "/api/domains/allow/exact/none.example", sid: sid)
            #expect(missing == 404)
            #expect(missingBody.hasPrefix(#"{"took":"#) && !missingBody.contains("error"))

            // Duplicate add → 201 with processed.errors.
            let add = #"{"domain":"Dup.Example"}"#
            let (first, _) = try await directRequest(f.http, .POST, base + "/api/domains/allow/exact", sid: sid, body: add)
            let (second, secondBody) = try await directRequest(f.http, .POST, base + "/api/domains/allow/exact", sid: sid, body: add)
            #expect(first == 201 && second == 201)
            #expect(secondBody.contains("UNIQUE constraint failed"))
            let (_, listed) = try await directRequest(f.http, .GET, base + "/api/domains/allow/exact", sid: sid)
            #expect(listed.contains(#""domain":"dup.example""#))

            // Logout: 204, then 401 for the same SID.
            let (out, _) = try await directRequest(f.http, .DELETE, base + "/api/auth", sid: sid)
            #expect(out == 204)
            let (outAgain, outAgainBody) = try await directRequest(f.http, .DELETE, base + "/api/auth", sid: sid)
            #expect(outAgain == 401 && outAgainBody.contains(#""session""#))
        }
    }

    @Test func loginRateLimit() async throws {
        try await withFixture { f in
            // At once, so that all four fall in FTL's one-second window however busy the machine is.
            let answers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for _ in 0..<4 {
                    group.addTask { try await directLogin(f.http, baseURL: f.simulator.baseURL, password: f.password) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.map(\.0).sorted() == [200, 200, 200, 429])
            #expect(answers.first { $0.0 == 429 }?.1.contains("rate_limiting") == true)
        }
    }

    @Test func sessionValidityIsExtendedByRequests() async throws {
        let clock = PiHoleSimulatorManualClock()
        try await withFixture(clock: .manual(clock)) { f in
            let base = f.simulator.baseURL
            let (_, body) = try await directLogin(f.http, baseURL: base, password: f.password)
            let sid = try #require(sessionID(in: body))
            clock.advance(by: 1700)
            #expect(try await directRequest(f.http, .GET, base + "/api/info/host", sid: sid).0 == 200)
            clock.advance(by: 1700)  // 3400 s after login, 1700 s after the last request
            #expect(try await directRequest(f.http, .GET, base + "/api/info/host", sid: sid).0 == 200)
            clock.advance(by: 1801)
            #expect(try await directRequest(f.http, .GET, base + "/api/info/host", sid: sid).0 == 401)
            #expect(f.simulator.activeSessionCount == 0)
        }
    }

    @Test func blockingTimerCountsDownOnTheSimulatorClock() async throws {
        let clock = PiHoleSimulatorManualClock()
        let simulator = PiHoleSimulator(clock: .manual(clock))
        simulator.setBlocking(enabled: false, timer: 10)
        #expect(simulator.blocking == .disabled)
        clock.advance(by: 1.1)
        let remaining = try #require(simulator.timerRemaining)
        #expect(abs(remaining - 8.9) < 0.0001)
        clock.advance(by: 9)
        #expect(simulator.blocking == .enabled)
        #expect(simulator.timerRemaining == nil)
    }

    /// The benchmark and the demo send it hundreds of thousands of requests: it keeps the newest
    /// only, and counts every one.
    @Test func keepsTheNewestRequestsAndCountsThemAll() async throws {
        let simulator = PiHoleSimulator(requestLogCapacity: 2)
        try await simulator.start()
        let http = try UpstreamHTTPClient(tls: nil)
        var failure: (any Error)?
        do {
            for path in ["/api/info/version", "/api/info/host", "/api/dns/blocking"] {
                _ = try await directRequest(http, .GET, simulator.baseURL + path)
            }
        } catch {
            failure = error
        }
        try await http.shutdown()
        await simulator.stop()
        if let failure { throw failure }
        #expect(simulator.requests.map(\.path) == ["/api/info/host", "/api/dns/blocking"])
        #expect(simulator.requestTotal == 3)
    }

    @Test func restartKeepsThePort() async throws {
        let simulator = PiHoleSimulator()
        try await simulator.start()
        let port = simulator.port
        #expect(port > 0)
        await simulator.stop()
        // Held for the restart: no other test's listener or connection takes it meanwhile.
        #expect(throws: LoopbackSocketError.self) { try BoundLoopbackSocket(port: port) }
        try await simulator.start()
        #expect(simulator.port == port)
        await simulator.stop()
    }
}
