import BridgeRuntime
import MQTTTestSupport
import NIOCore
import SimulatorSupport
import Testing
import UpstreamHTTP

/// The HTTP client against servers and networks that misbehave, each from a raw TCP server that
/// sends exactly the bytes a test says: every failure is a clear `UpstreamError`, nothing crashes,
/// no connection is left open, and the next request works.
@Suite struct HostileServerTests {
    static let ok = answer("ok")

    static func answer(_ body: String, headers: String = "") -> RawTCPServer.Action {
        .send(Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)".utf8))
    }

    // MARK: - Kept-alive connections the server closes

    /// uvicorn closes an idle connection after 5 s, at times just as a request goes out on it.
    @Test func aGetOnAConnectionClosedAsItArrivesIsSentAgainOnAFreshOne() async throws {
        try await withServer({ request in request.connection == 0 && request.indexOnConnection == 1 ? .close : Self.ok }) { server, client in
            try await client.expectAnswer("ok", to: "/first", from: server)
            try await client.expectAnswer("ok", to: "/second", from: server)
            #expect(server.requests.map(\.line) == ["GET /first HTTP/1.1", "GET /second HTTP/1.1", "GET /second HTTP/1.1"])
            #expect(server.connectionsAccepted == 2)
        }
    }

    /// Once only: the second failure, on a fresh connection, is the server's answer.
    @Test func aRequestIsSentAgainOnceAtMost() async throws {
        try await withServer({ request in request.connection == 0 && request.indexOnConnection == 0 ? Self.ok : .close }) { server, client in
            try await client.expectAnswer("ok", to: "/first", from: server)
            let error = await #expect(throws: UpstreamError.self) { try await client.get(server, "/second") }
            #expect(error?.code == .connectionClosed)
            #expect(server.requests.filter { $0.line.hasPrefix("GET /second") }.count == 2)
        }
    }

    /// A request that is not idempotent (a login, a pause) may have been carried out: never sent twice.
    @Test func aPostOnAConnectionClosedAsItArrivesIsNotSentAgain() async throws {
        // Every POST meets a close: on the kept-alive connection, or on a fresh one if a loaded
        // machine let the connection idle past the window for POSTs; sent once either way.
        try await withServer({ request in request.line.hasPrefix("POST") ? .close : Self.ok }) { server, client in
            try await client.expectAnswer("ok", to: "/first", from: server)
            let error = await #expect(throws: UpstreamError.self) {
                _ = try await client.collect(.POST, server.baseURL + "/pause", headers: [:], body: ByteBuffer(string: "{}"), timeout: .seconds(20), maxBodySize: 1000)
            }
            #expect(error?.code == .connectionClosed)
            #expect(server.requests.filter { $0.line.hasPrefix("POST") }.count == 1)
        }
    }

    /// …so it takes a kept-alive connection only while that is too fresh for a server to be closing it.
    @Test func aPostAfterAPauseGoesOutOnAFreshConnection() async throws {
        try await withServer({ request in request.indexOnConnection == 1 ? .close : Self.ok }) { server, client in
            try await client.expectAnswer("ok", to: "/first", from: server)
            try await Task.sleep(for: .milliseconds(2200))
            let answer = try await client.collect(.POST, server.baseURL + "/pause", headers: [:], body: ByteBuffer(string: "{}"), timeout: .seconds(20), maxBodySize: 1000)
            #expect(answer.status == .ok)
            #expect(server.connectionsAccepted == 2)
        }
    }

    /// Closed between two requests: the client noticed, and the next request connects anew.
    @Test func aConnectionClosedWhileIdleIsNotHandedOut() async throws {
        try await withServer({ _ in .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8), thenClose: true) }) { server, client in
            try await client.expectAnswer("ok", to: "/first", from: server)
            try await waitUntil("the server's close reached the client") { server.openConnections == 0 }
            try await client.expectAnswer("ok", to: "/second", from: server)
            #expect(server.requests.count == 2)
        }
    }

    /// A connection nobody asks for is given back; the next request connects anew.
    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await withServer({ _ in Self.ok }, idleTimeout: .milliseconds(300)) { server, client in
            try await client.expectAnswer("ok", to: "/first", from: server)
            try await waitUntil("the idle connection closed") { server.openConnections == 0 }
            try await client.expectAnswer("ok", to: "/second", from: server)
            #expect(server.connectionsAccepted == 2)
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await withServer({ _ in Self.answer("ok", headers: "Connection: close\r\n") }) { server, client in
            try await client.expectAnswer("ok", to: "/first", from: server)
            try await client.expectAnswer("ok", to: "/second", from: server)
            #expect(server.connectionsAccepted == 2)
            try await waitUntil("the client closed both") { server.openConnections == 0 }
        }
    }

    // MARK: - Answers that are odd but whole

    @Test func aBodyEndedByTheConnectionsEndIsWhole() async throws {
        try await withServer({ _ in .send(Array("HTTP/1.1 200 OK\r\n\r\nall of it".utf8), thenClose: true) }) { server, client in
            try await client.expectAnswer("all of it", to: "/", from: server)
            try await client.expectAnswer("all of it", to: "/", from: server)
        }
    }

    @Test func informationalAnswersBeforeTheAnswerAreSkipped() async throws {
        try await withServer({ _ in .send(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)) }) { server, client in
            try await client.expectAnswer("ok", to: "/", from: server)
            try await client.expectAnswer("ok", to: "/", from: server)
        }
    }

    @Test func aChunkedBodyWithTrailersIsWhole() async throws {
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\nX-Checksum: 1\r\n\r\n"
        try await withServer({ _ in .send(Array(chunked.utf8)) }) { server, client in
            try await client.expectAnswer("abcde", to: "/", from: server)
            try await client.expectAnswer("abcde", to: "/", from: server)
            #expect(server.connectionsAccepted == 1)
        }
    }

    // MARK: - Answers that are broken

    @Test func aLengthLongerThanTheBodyFailsWhenTheConnectionEnds() async throws {
        try await expectFailure(.connectionClosed, from: .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort".utf8), thenClose: true))
    }

    /// The bytes past the length are left on the connection, where the next answer would start.
    @Test func aLengthShorterThanTheBodyCutsItAndTheNextRequestStillWorks() async throws {
        try await withServer({ request in
            request.connection == 0 ? .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nhello".utf8)) : Self.ok
        }) { server, client in
            try await client.expectAnswer("hel", to: "/", from: server)
            try await client.expectAnswer("ok", to: "/", from: server)
        }
    }

    @Test func aGarbageStatusLineIsAMalformedAnswer() async throws {
        try await expectFailure(.malformedResponse, from: .send(Array("SMTP ready\r\n\r\n".utf8)))
    }

    @Test func aChunkSizeThatIsNoNumberIsAMalformedAnswer() async throws {
        try await expectFailure(.malformedResponse, from: .send(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n".utf8)))
    }

    @Test func headersPastTheParsersLimitAreAMalformedAnswer() async throws {
        let header = "X-Padding: " + String(repeating: "a", count: 1000) + "\r\n"
        try await expectFailure(.malformedResponse, from: .send(Array("HTTP/1.1 200 OK\r\n\(String(repeating: header, count: 200))Content-Length: 2\r\n\r\nok".utf8)))
    }

    @Test func aBodyOverTheCapIsRefusedWhateverItsFraming() async throws {
        try await expectFailure(.bodyTooLarge, from: .send(Array("HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\nx".utf8)))
        let chunk = String(repeating: "x", count: 600)
        try await expectFailure(.bodyTooLarge, from: .send(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n".utf8)))
    }

    @Test func anAnswerDrippingPastTheTimeLimitTimesOut() async throws {
        try await expectFailure(.timedOut, from: .drip(Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8), every: .milliseconds(200)), timeout: .seconds(1))
    }

    @Test func anAnswerThatNeverComesTimesOut() async throws {
        try await expectFailure(.timedOut, from: .silence, timeout: .seconds(1))
    }

    /// The deadline is on the client's clock: on a test's clock, nothing but an advance ends it,
    /// and an advance does not go past it while the answer is awaited.
    @Test func aRequestsDeadlineIsOnTheClientsClock() async throws {
        let clock = ManualClock()
        try await withServer({ _ in .silence }, clock: clock) { server, client in
            let request = Task { try await client.get(server, "/", timeout: .milliseconds(1)) }
            // Polled: the request is made on the client's loop.
            while clock.requestsInFlight == 0 { try await Task.sleep(for: .milliseconds(1)) }
            await #expect(throws: ManualClock.Unsettled.self) { try await clock.advance(by: .seconds(1), settling: .milliseconds(300)) }
            #expect(clock.requestsInFlight == 1, "still awaited, not timed out by the machine's time")
            request.cancel()
            await #expect(throws: CancellationError.self) { try await request.value }
            #expect(clock.requestsInFlight == 0)
        }
    }

    /// `failure` for the first request of every connection the server takes; the client closes
    /// the connection, and a request to a server that answers well works at once.
    private func expectFailure(_ code: UpstreamError.Code, from failure: RawTCPServer.Action, timeout: Duration = .seconds(20)) async throws {
        try await withServer({ request in request.connection == 0 ? failure : Self.ok }) { server, client in
            let error = await #expect(throws: UpstreamError.self) { try await client.get(server, "/", timeout: timeout) }
            #expect(error?.code == code, "\(String(describing: error))")
            try await waitUntil("the failed connection closed") { server.openConnections == 0 }
            try await client.expectAnswer("ok", to: "/", from: server)
        }
    }
}

extension UpstreamHTTPClient {
    fileprivate func expectAnswer(
        _ expected: String, to path: String, from server: RawTCPServer, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let body = try await get(server, path)
        #expect(body == expected, sourceLocation: sourceLocation)
    }

    fileprivate func get(_ server: RawTCPServer, _ path: String, timeout: Duration = .seconds(20)) async throws -> String {
        let response = try await collect(.GET, server.baseURL + path, headers: [:], body: nil, timeout: timeout, maxBodySize: 1000)
        return String(buffer: response.body)
    }
}

/// A raw server answering as `script` says, and a client of it, for the length of `body`.
private func withServer(
    _ script: @escaping RawTCPServer.Script, idleTimeout: Duration = UpstreamHTTPClient.idleTimeout,
    clock: any BridgeClock = .system, _ body: (RawTCPServer, UpstreamHTTPClient) async throws -> Void
) async throws {
    let server = RawTCPServer(script)
    try await server.start()
    let client = try UpstreamHTTPClient(tls: nil, idleTimeout: idleTimeout, clock: clock)
    do {
        try await body(server, client)
    } catch {
        try? await client.shutdown()
        await server.stop()
        throw error
    }
    try await client.shutdown()
    await server.stop()
}
