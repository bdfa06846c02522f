import BellasReefAPI
import BellasReefSimulator
import BridgeRuntime
import Foundation
import Testing

@Suite("BellasReefClient authentication against the simulator")
struct ClientAuthTests {
    @Test func formLoginAndOneTokenForEveryService() async throws {
        try await withReef { f in
            _ = try await f.client.hostInfo()
            _ = try await f.client.probes()
            _ = try await f.client.outlets(includeDisabled: false)
            #expect(f.simulator.loginCount == 1)
            #expect(f.client.loginCount == 1)

            let login = try #require(f.simulator.requests(.core).first)
            #expect(login.method == "POST" && login.path == "/api/auth/login")
            #expect(login.header("content-type") == "application/x-www-form-urlencoded")
            #expect(login.body == "username=bellas&password=reefrocks")

            let tokens = Set(f.requestsNeedingToken.map(\.bearerToken))
            #expect(tokens.count == 1 && tokens.first! != nil)
            #expect(f.simulator.requests(.temperature).count == 1 && f.simulator.requests(.outlets).count == 1)
        }
    }

    @Test func concurrentCallersShareOneLogin() async throws {
        try await withReef { f in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 { group.addTask { _ = try await f.client.systemUsage() } }
                for _ in 0..<10 { group.addTask { _ = try await f.client.outlets(includeDisabled: true) } }
                try await group.waitForAll()
            }
            #expect(f.simulator.loginCount == 1)
            #expect(f.requestsNeedingToken.count == 20)
            #expect(f.requestsNeedingToken.allSatisfy { $0.bearerToken != nil })
        }
    }

    /// On virtual time, the client's and the simulator's: a 12 s token is renewed a quarter of its
    /// life ahead (9 s in), so calls 0.4 s apart for 12 s take exactly two logins, and none is refused
    /// (a refusal would have cost a retry: one request more than calls).
    @Test func shortExpiryIsRenewedByALoginBeforeAny401() async throws {
        let clock = ManualClock()
        var options = BellasReefSimulator.Options()
        options.tokenLifetime = .seconds(12)
        options.now = { clock.wallNow }
        try await withReef(options: options, now: { clock.wallNow }) { f in
            let calls = 30
            for _ in 0..<calls {
                _ = try await f.client.systemUsage()
                try await clock.advance(by: .milliseconds(400))
            }
            #expect(f.simulator.loginCount == 2)
            #expect(f.coreRequests("/api/system-usage").count == calls)
        }
    }

    @Test func refreshTokenIsUsedWhenOffered() async throws {
        let clock = ManualClock()
        var options = BellasReefSimulator.Options()
        options.tokenLifetime = .seconds(6)
        options.offersRefreshToken = true
        options.now = { clock.wallNow }
        try await withReef(options: options, now: { clock.wallNow }) { f in
            let calls = 24
            for _ in 0..<calls {
                _ = try await f.client.hostInfo()
                try await clock.advance(by: .milliseconds(400))
            }
            #expect(f.simulator.loginCount == 1)
            #expect(f.simulator.refreshCount >= 1)
            #expect(await f.client.refreshCount == f.simulator.refreshCount)
            #expect(f.coreRequests("/api/host-info").count == calls)
            let refresh = try #require(f.coreRequests("/api/auth/refresh").first)
            #expect(refresh.body.contains("refresh_token") && refresh.bearerToken == nil)
        }
    }

    @Test func refusedTokenIsHealedByOneLoginAndOneRetry() async throws {
        try await withReef { f in
            _ = try await f.client.outlets(includeDisabled: false)
            f.simulator.expireAllTokens()
            _ = try await f.client.outlets(includeDisabled: false)
            #expect(f.simulator.loginCount == 2)
            let listed = f.simulator.requests(.outlets).filter { $0.path == "/api/smartoutlets/outlets/" }
            #expect(listed.count == 3)  // first, refused, retried
            #expect(listed[1].bearerToken == listed[0].bearerToken && listed[2].bearerToken != listed[1].bearerToken)
        }
    }

    @Test func failedLoginsBackOffAndNoRequestGoesWithoutAToken() async throws {
        try await withReef(clientPassword: "wrong") { f in
            var codes: [BellasReefError.Code] = []
            let clock = ContinuousClock()
            let end = clock.now + .milliseconds(3500)
            while clock.now < end {
                if let error = await reefError({ _ = try await f.client.hostInfo() }) { codes.append(error.code) }
                try await Task.sleep(for: .milliseconds(50))
            }
            // Logins at about 0 s, 1 s and 3 s: backoff 1 s, then 2 s.
            #expect((2...3).contains(f.simulator.loginCount))
            #expect(codes.first == .wrongCredentials)
            #expect(codes.contains(.backingOff), "calls during the backoff are refused without a request")
            #expect(f.simulator.requests(.core).allSatisfy { $0.path == "/api/auth/login" })
            #expect(f.requestsNeedingToken.isEmpty)
        }
    }
}
