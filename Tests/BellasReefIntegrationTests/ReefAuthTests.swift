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

    @Test func aShortLivedTokenIsRenewedBeforeItExpires() async throws {
        var options = BellasReefSimulator.Options()
        // Renewal comes with a tenth of the lifetime left: 3 s here (a real one's is 360 s). With
        // 1 s, a request or the renewal's login slowed by the suite's own load met an expired token.
        options.tokenLifetime = .seconds(30)
        try await ReefFixture.run(options: options) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            try await waitUntil("a renewal", timeout: .seconds(45)) { fixture.simulator.loginCount >= 2 }
            try await Task.sleep(for: .seconds(1))
            // Every token was replaced before its exp: no request was refused and sent again.
            #expect(retriedPaths(fixture.simulator.requests(.core)) == [])
            #expect(retriedPaths(fixture.simulator.requests(.temperature)) == [])
            #expect(retriedPaths(fixture.simulator.requests(.outlets)) == [])
            #expect(!observer.recorder.messages.contains { $0.topic.hasSuffix("/availability") && $0.payloadString == "offline" })
        }
    }

    @Test func aRefusedTokenIsHealedWithOneLogin() async throws {
        try await ReefFixture.run { fixture, observer in
            let first = try await observer.latest("home/reef/system") { $0["read_at"] != nil && $0["read_at"] != .null }
            #expect(fixture.simulator.loginCount == 1)
            let oldToken = fixture.simulator.requests(.core).last { $0.bearerToken != nil }?.bearerToken
            let seen = Dictionary(uniqueKeysWithValues: BellasReefSimulator.Service.allCases.map { ($0, fixture.simulator.requests($0).count) })
            fixture.simulator.expireAllTokens()
            _ = try await observer.latest("home/reef/system") { $0["read_at"] != first["read_at"] }
            try await Task.sleep(for: .seconds(2))
            let later = BellasReefSimulator.Service.allCases.flatMap { fixture.simulator.requests($0).dropFirst(seen[$0] ?? 0) }
            // The old token was sent and refused; the three services' loops all met the refusal,
            // and one login served them all.
            #expect(later.contains { $0.bearerToken == oldToken })
            #expect(fixture.simulator.loginCount == 2)
            #expect(!observer.recorder.messages.contains { $0.topic.hasSuffix("/availability") && $0.payloadString == "offline" })
        }
    }
}
