import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import Testing

@Suite(.serialized) struct ReefAuthTests {
    /// A 401 makes the client log in again and retry the same request: the same path twice in a row.
    private func retriedPaths(_ requests: [BellasReefSimulator.RecordedRequest]) -> [String] {
        let authenticated = requests.filter { $0.bearerToken != nil }
        return zip(authenticated, authenticated.dropFirst()).filter { $0.path == $1.path && $0.bearerToken != $1.bearerToken }.map(\.0.path)
    }

    /// On virtual time, the simulator's tokens too: a 30 s token is renewed a quarter of its
    /// life before its `exp` (at 22.5 s), so 35 s of one-second polls take exactly two logins and
    /// no request is refused.
    @Test func aShortLivedTokenIsRenewedBeforeItExpires() async throws {
        let clock = ManualClock()
        var options = BellasReefSimulator.Options()
        options.tokenLifetime = .seconds(30)
        options.now = { clock.wallNow }
        try await ReefFixture.run(options: options, clock: clock) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            for _ in 1...22 { try await clock.advance(by: .seconds(1)) }
            #expect(fixture.simulator.loginCount == 1)
            for _ in 1...13 { try await clock.advance(by: .seconds(1)) }
            #expect(fixture.simulator.loginCount == 2)
            // Every token was replaced before its exp: no request was refused and sent again.
            #expect(retriedPaths(fixture.simulator.requests(.core)) == [])
            #expect(retriedPaths(fixture.simulator.requests(.temperature)) == [])
            #expect(retriedPaths(fixture.simulator.requests(.outlets)) == [])
            #expect(!observer.recorder.messages.contains { $0.topic.hasSuffix("/availability") && $0.payloadString == "offline" })
        }
    }

    @Test func aRefusedTokenIsHealedWithOneLogin() async throws {
        let clock = ManualClock()
        try await ReefFixture.run(clock: clock) { fixture, observer in
            _ = try await observer.latest("home/reef/system") { $0["read_at"] != nil && $0["read_at"] != .null }
            #expect(fixture.simulator.loginCount == 1)
            let oldToken = fixture.simulator.requests(.core).last { $0.bearerToken != nil }?.bearerToken
            let seen = Dictionary(uniqueKeysWithValues: BellasReefSimulator.Service.allCases.map { ($0, fixture.simulator.requests($0).count) })
            fixture.simulator.expireAllTokens()
            // One reading of each service.
            try await clock.advance(by: .seconds(1))
            let later = BellasReefSimulator.Service.allCases.flatMap { fixture.simulator.requests($0).dropFirst(seen[$0] ?? 0) }
            // The old token was sent and refused; the three services' loops all met the refusal,
            // and one login served them all.
            #expect(later.contains { $0.bearerToken == oldToken })
            #expect(fixture.simulator.loginCount == 2)
            #expect(!observer.recorder.messages.contains { $0.topic.hasSuffix("/availability") && $0.payloadString == "offline" })
        }
    }
}
