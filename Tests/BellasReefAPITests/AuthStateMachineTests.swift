import Foundation
import Testing

@testable import BellasReefAPI

@Suite("Bella's Reef token state machine (no I/O)")
struct AuthStateMachineTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func token(lifetime: TimeInterval, refresh: String? = nil) -> BellasReefToken {
        BellasReefToken(accessToken: jwt(exp: t0 + lifetime), refreshToken: refresh, receivedAt: t0)
    }

    @Test func renewalIsPlannedFromExp() {
        let hour = token(lifetime: 3600)
        #expect(hour.expiresAt == t0 + 3600)
        #expect(hour.renewAt == t0 + 3540)  // 60 s before
        let short = token(lifetime: 10)
        #expect(short.renewAt == t0 + 7.5)  // a quarter of the lifetime before
        // An exp already past (clock skew) or unreadable is not trusted: a 401 heals instead.
        #expect(token(lifetime: -5).renewAt == nil)
        #expect(BellasReefToken(accessToken: "opaque", refreshToken: nil, receivedAt: t0).expiresAt == nil)
    }

    @Test func firstCallerLogsInOthersWaitThenShare() {
        var machine = BellasReefAuthStateMachine()
        #expect(machine.tokenNeeded(now: t0) == .startLogin)
        #expect(machine.tokenNeeded(now: t0) == .waitForLogin)
        let granted = token(lifetime: 3600)
        machine.loginSucceeded(granted)
        #expect(machine.tokenNeeded(now: t0 + 100) == .use(granted.accessToken))
        #expect(machine.loginCount == 1)
    }

    @Test func renewsBeforeExpiryWhileOthersKeepTheOldToken() {
        var machine = BellasReefAuthStateMachine()
        _ = machine.tokenNeeded(now: t0)
        let old = token(lifetime: 3600)
        machine.loginSucceeded(old)
        #expect(machine.tokenNeeded(now: t0 + 3539) == .use(old.accessToken))
        #expect(machine.tokenNeeded(now: t0 + 3541) == .startLogin)
        #expect(machine.tokenNeeded(now: t0 + 3542) == .use(old.accessToken))
        #expect(machine.tokenNeeded(now: t0 + 3600) == .waitForLogin)
        #expect(machine.loginCount == 2)
    }

    @Test func refreshTokenIsUsedAndFallsBackToALogin() {
        var machine = BellasReefAuthStateMachine()
        _ = machine.tokenNeeded(now: t0)
        machine.loginSucceeded(token(lifetime: 100, refresh: "r1"))
        #expect(machine.tokenNeeded(now: t0 + 95) == .startRefresh(refreshToken: "r1"))
        #expect(machine.refreshCount == 1)
        #expect(machine.loginCount == 1)
        machine.refreshFailed()
        #expect(machine.loginCount == 2)
        // The login after it failed: the old token still serves, then a plain login, no refresh.
        machine.loginFailed(BellasReefError(.transport, "refused"), now: t0 + 95)
        #expect(machine.tokenNeeded(now: t0 + 95.5) != .startLogin)
        #expect(machine.tokenNeeded(now: t0 + 96) == .startLogin)
        #expect(machine.refreshCount == 1)
    }

    @Test func failedLoginsBackOffWithoutRequests() {
        var machine = BellasReefAuthStateMachine()
        #expect(machine.tokenNeeded(now: t0) == .startLogin)
        #expect(machine.loginFailed(BellasReefError(.wrongCredentials, "Incorrect"), now: t0) == .seconds(1))
        guard case .fail(let error) = machine.tokenNeeded(now: t0 + 0.4) else {
            Issue.record("expected .fail")
            return
        }
        #expect(error.code == .backingOff)
        #expect(error.message.contains("Incorrect"))
        #expect(machine.tokenNeeded(now: t0 + 1) == .startLogin)
        #expect(machine.loginFailed(BellasReefError(.transport, "refused"), now: t0 + 1) == .seconds(2))
        #expect(machine.tokenNeeded(now: t0 + 2.9) != .startLogin)
        #expect(machine.tokenNeeded(now: t0 + 3) == .startLogin)
        #expect(machine.loginCount == 3)
        machine.loginSucceeded(token(lifetime: 3600))
        #expect(machine.consecutiveFailures == 0 && machine.backoffUntil == nil)
    }

    @Test func rejectionRetriesOnceThenFails() {
        var machine = BellasReefAuthStateMachine()
        _ = machine.tokenNeeded(now: t0)
        let granted = token(lifetime: 3600)
        machine.loginSucceeded(granted)
        let refused = BellasReefError(.unauthorized, "Could not validate credentials", status: 401)
        #expect(machine.requestRejected(accessToken: granted.accessToken, isRetry: false, error: refused) == .retryWithFreshToken)
        #expect(machine.state == .noToken)
        #expect(machine.tokenNeeded(now: t0) == .startLogin)
        #expect(machine.requestRejected(accessToken: "other", isRetry: true, error: refused) == .fail(refused))
    }
}
