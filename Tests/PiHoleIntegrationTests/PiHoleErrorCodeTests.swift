import BridgeCore
import PiHoleAPI
import PiHoleIntegration
import Testing
import UpstreamHTTP

/// What a Pi-hole's failure makes of a command's `code`.
@Suite struct PiHoleErrorCodeTests {
    private func code(_ error: any Error) -> CommandErrorCode {
        CommandError("main", failure: error).code
    }

    @Test func aTimeLimitIsTimeoutAndAConnectThatFailsIsUnavailable() {
        #expect(code(PiHoleError.mapping(UpstreamError(.timedOut, "no answer within 10 s"))) == .timeout)
        #expect(code(PiHoleError.mapping(UpstreamError(.connectFailed, "connection refused"))) == .upstreamUnavailable)
        #expect(code(PiHoleError.mapping(UpstreamError(.connectionClosed, "closed"))) == .upstreamUnavailable)
    }

    /// A login refused for its password stays a matter of credentials while the client backs off;
    /// one that found no Pi-hole is a busy wait.
    @Test func backingOffKeepsTheReasonOfTheLastLogin() {
        let now = ContinuousClock.now
        var machine = PiHoleSessionStateMachine()
        _ = machine.sessionNeeded(now: now)
        _ = machine.loginFailed(PiHoleError(.wrongPassword, "password incorrect"), now: now)
        guard case .fail(let backingOff) = machine.sessionNeeded(now: now) else { Issue.record("no backoff"); return }
        #expect(backingOff.code == .backingOff)
        #expect(code(backingOff) == .unauthorized)
        #expect(code(PiHoleError(.backingOff, "after a lost answer")) == .busy)
    }
}
