import BridgeRuntime
import Foundation
import Logging
import SimulatorSupport
import Synchronization
import Testing
import UpstreamHTTP

@testable import PiHoleAPI
@testable import PiHoleSimulator

/// A login whose answer is lost still makes a session on FTL, holding one of its 16 seats for 30
/// minutes; through a lossy link they once ran out and FTL refused every login, the web
/// interface's too. The client ends those sessions, and only those.
@Suite struct LostLoginTests {
    @Test func sessionsOfLostLoginsAreEndedAndNobodyElsesAre() async throws {
        let skipped = Atomic<Int64>(0)
        try await withFixture(now: { ContinuousClock.now + .seconds(skipped.load(ordering: .relaxed)) }) { f in
            f.simulator.openSession(userAgent: "Mozilla/5.0 (the web interface)")
            f.simulator.openSession(userAgent: nil)
            try await f.simulator.setFault(.loseLoginAnswers(3))
            for _ in 0..<3 {
                let lost = await piHoleError { _ = try await f.client.blockingStatus() }
                #expect(lost?.code == .transport, "\(String(describing: lost))")
                // Soon again: a lost answer is no wrong password.
                let waiting = await piHoleError { _ = try await f.client.blockingStatus() }
                #expect(waiting?.code == .backingOff)
                #expect(waiting?.retryAfter.map { $0 <= .seconds(4) } == true)
                skipped.add(5, ordering: .relaxed)
                // FTL refuses a fourth login within a second (rate_limiting), as the simulator does.
                try await Task.sleep(for: .milliseconds(400))
            }
            #expect(f.simulator.sessionUserAgents.filter { $0 == Product.userAgent }.count == 3)

            _ = try await f.client.blockingStatus()
            #expect(f.simulator.sessionUserAgents == ["Mozilla/5.0 (the web interface)", nil, Product.userAgent])
            #expect(f.simulator.requests.filter { $0.method == "DELETE" && $0.path.hasPrefix("/api/auth/session/") }.count == 3)

            await f.client.logout()
            #expect(f.simulator.sessionUserAgents == ["Mozilla/5.0 (the web interface)", nil])
        }
    }

    /// Without a lost answer there is nothing to end: no session list is read.
    @Test func aCleanLoginListsNoSessions() async throws {
        try await withFixture { f in
            f.simulator.openSession(userAgent: Product.userAgent)
            _ = try await f.client.blockingStatus()
            await f.client.logout()
            #expect(f.simulator.requests.allSatisfy { $0.path != "/api/auth/sessions" })
            #expect(f.simulator.sessionUserAgents == [Product.userAgent])
        }
    }

    /// Every request says who sends it: FTL's session list, and its log, tell the bridge apart.
    @Test func everyRequestCarriesTheBridgesUserAgent() async throws {
        try await withFixture { f in
            _ = try await f.client.blockingStatus()
            await f.client.logout()
            #expect(f.simulator.requests.count == 3)
            #expect(f.simulator.requests.allSatisfy { $0.header("user-agent") == "home2mqtt/\(Product.version)" })
        }
    }

    /// A login answer is a few hundred bytes: one of a megabyte is refused before it is all read,
    /// and counted as a login whose answer was lost.
    @Test func aLoginAnswerTooLargeIsRefusedAndCountsAsLost() async throws {
        let padding = String(repeating: " ", count: 1 << 20)
        let server = RawTCPServer { _ in
            .send(Array("HTTP/1.1 200 OK\r\nContent-Length: \(padding.utf8.count + 2)\r\n\r\n{\(padding)}".utf8))
        }
        try await server.start()
        let connection = PiHoleConnection(baseURL: server.baseURL, password: "x", requestTimeout: .seconds(20))
        let http = try await PiHoleClient.makeHTTPClient(for: connection)
        let client = PiHoleClient(connection: connection, httpClient: http, logger: Logger(label: "test.pihole"))
        let error = await piHoleError { _ = try await client.blockingStatus() }
        #expect(error?.code == .transport)
        #expect(error?.message.hasPrefix("answer larger than \(AnswerSize.single) bytes") == true, "\(String(describing: error))")
        #expect(await client.machine.loginsWithLostAnswers == 1)
        try await http.shutdown()
        await server.stop()
    }

    /// A session id is a `number` in the spec: one that is no whole number (1e300 trapped the
    /// conversion) is skipped, and the others are read.
    @Test func aSessionIdThatIsNoWholeNumberIsSkipped() async throws {
        let login = #"{"session":{"valid":true,"totp":false,"sid":"abcdefghijklmnopqrstuvwx","csrf":"x","validity":1800,"message":"password correct"}}"#
        let sessions = #"{"sessions":[{"id":1e300,"current_session":false},{"id":2.5},{"id":3,"current_session":true,"user_agent":"home2mqtt/x"}]}"#
        let server = RawTCPServer { request in
            let body = request.line.hasPrefix("POST /api/auth ") ? login : sessions
            return .send(Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        }
        try await server.start()
        let connection = PiHoleConnection(baseURL: server.baseURL, password: "x", requestTimeout: .seconds(20))
        let http = try await PiHoleClient.makeHTTPClient(for: connection)
        let client = PiHoleClient(connection: connection, httpClient: http, logger: Logger(label: "test.pihole"))
        let read = try await client.sessions()
        #expect(read.map(\.id) == [3])
        #expect(read.first?.isCurrent == true)
        try await http.shutdown()
        await server.stop()
    }
}
