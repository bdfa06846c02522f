import Foundation
import Testing
import UpstreamHTTP

@testable import PiHoleAPI

@Suite("Session state machine (no I/O)")
struct SessionStateMachineTests {
    let t0 = ContinuousClock.now

    @Test func firstCallerLogsInOthersWaitThenShareTheSession() {
        var machine = PiHoleSessionStateMachine()
        #expect(machine.sessionNeeded(now: t0) == .startLogin)
        #expect(machine.sessionNeeded(now: t0) == .waitForLogin)
        #expect(machine.sessionNeeded(now: t0) == .waitForLogin)
        machine.loginSucceeded(sid: "abc")
        #expect(machine.sessionNeeded(now: t0) == .use(sid: "abc"))
        #expect(machine.loginCount == 1)
    }

    @Test func failedLoginBacksOffWithoutRequests() {
        var machine = PiHoleSessionStateMachine()
        #expect(machine.sessionNeeded(now: t0) == .startLogin)
        let delay = machine.loginFailed(PiHoleError(.wrongPassword, "password incorrect"), now: t0)
        #expect(delay == .seconds(1))

        guard case .fail(let error) = machine.sessionNeeded(now: t0 + .milliseconds(400)) else {
            Issue.record("expected .fail")
            return
        }
        #expect(error.code == .backingOff)
        #expect(error.retryAfter == .milliseconds(600))
        #expect(error.message.contains("password incorrect"))
        #expect(machine.loginCount == 1)

        // Deadline passed: one new attempt.
        #expect(machine.sessionNeeded(now: t0 + .seconds(1)) == .startLogin)
        #expect(machine.loginFailed(PiHoleError(.wrongPassword, "password incorrect"), now: t0 + .seconds(1)) == .seconds(2))
        #expect(machine.sessionNeeded(now: t0 + .milliseconds(2900)) != .startLogin)
        #expect(machine.sessionNeeded(now: t0 + .seconds(3)) == .startLogin)
        #expect(machine.loginFailed(PiHoleError(.wrongPassword, "password incorrect"), now: t0 + .seconds(3)) == .seconds(4))
        #expect(machine.consecutiveFailures == 3)
    }

    /// A Pi-hole that did not answer said nothing of the password: its login is tried again in
    /// 2–4 s however often it failed, jittered, and one whose answer was lost is counted.
    @Test func aLoginWithoutAnAnswerIsTriedAgainSoon() {
        var machine = PiHoleSessionStateMachine()
        for attempt in 0..<8 {
            let now = t0 + .seconds(10 * attempt)
            #expect(machine.sessionNeeded(now: now) == .startLogin)
            let delay = machine.loginFailed(PiHoleError(.transport, "closed"), now: now, answerLost: true, jitter: Double(attempt) / 7)
            #expect(delay == .seconds(2) + .seconds(2) * (Double(attempt) / 7))
        }
        #expect(machine.loginsWithLostAnswers == 8)
        #expect(machine.sessionNeeded(now: t0 + .seconds(80)) == .startLogin)
        machine.loginSucceeded(sid: "s1")
        #expect(machine.loginsWithLostAnswers == 8)
        machine.lostLoginSessionsEnded()
        #expect(machine.loginsWithLostAnswers == 0)
        // A connect that failed left nothing behind.
        #expect(machine.requestRejected(sid: "s1", isRetry: false) == .retryWithFreshSession)
        #expect(machine.sessionNeeded(now: t0 + .seconds(90)) == .startLogin)
        #expect(machine.loginFailed(PiHoleError(.transport, "refused"), now: t0 + .seconds(90)) == .seconds(2))
        #expect(machine.loginsWithLostAnswers == 0)
    }

    @Test func successfulLoginResetsBackoff() {
        var machine = PiHoleSessionStateMachine()
        _ = machine.sessionNeeded(now: t0)
        machine.loginFailed(PiHoleError(.rateLimited, "Rate-limiting login attempts"), now: t0)
        _ = machine.sessionNeeded(now: t0 + .seconds(1))
        machine.loginSucceeded(sid: "s1")
        #expect(machine.consecutiveFailures == 0)
        #expect(machine.backoffUntil == nil)
        // The next failure starts again at 1 s.
        #expect(machine.requestRejected(sid: "s1", isRetry: false) == .retryWithFreshSession)
        #expect(machine.sessionNeeded(now: t0 + .seconds(2)) == .startLogin)
        #expect(machine.loginFailed(PiHoleError(.wrongPassword, "x"), now: t0 + .seconds(2)) == .seconds(1))
    }

    @Test func retryAfterIsHonoured() {
        var machine = PiHoleSessionStateMachine()
        _ = machine.sessionNeeded(now: t0)
        let delay = machine.loginFailed(
            PiHoleError(.seatsExceeded, "API seats exceeded", retryAfter: .seconds(30)), now: t0)
        #expect(delay == .seconds(30))
        #expect(machine.backoffUntil == t0 + .seconds(30))
        guard case .fail(let error) = machine.sessionNeeded(now: t0 + .seconds(29)) else {
            Issue.record("expected .fail")
            return
        }
        #expect(error.code == .backingOff)
    }

    @Test func rejectedRequestRetriesOnceThenFails() {
        var machine = PiHoleSessionStateMachine()
        _ = machine.sessionNeeded(now: t0)
        machine.loginSucceeded(sid: "old")
        #expect(machine.requestRejected(sid: "old", isRetry: false) == .retryWithFreshSession)
        #expect(machine.state == .noSession)
        #expect(machine.sessionNeeded(now: t0) == .startLogin)
        machine.loginSucceeded(sid: "new")
        guard case .fail(let error) = machine.requestRejected(sid: "new", isRetry: true) else {
            Issue.record("expected .fail")
            return
        }
        #expect(error.code == .unauthorized)
        #expect(machine.loginCount == 2)
    }

    @Test func staleRejectionDoesNotDropANewerSession() {
        var machine = PiHoleSessionStateMachine()
        _ = machine.sessionNeeded(now: t0)
        machine.loginSucceeded(sid: "newer")
        #expect(machine.requestRejected(sid: "older", isRetry: false) == .retryWithFreshSession)
        // Another caller already logged in again: reuse, no second login.
        #expect(machine.sessionNeeded(now: t0) == .use(sid: "newer"))
        #expect(machine.loginCount == 1)
    }

    @Test func logoutActions() {
        var machine = PiHoleSessionStateMachine()
        #expect(machine.logout() == .none)
        _ = machine.sessionNeeded(now: t0)
        #expect(machine.logout() == .waitForLogin)
        machine.loginSucceeded(sid: "s")
        #expect(machine.logout() == .deleteSession(sid: "s"))
        #expect(machine.logout() == .none)
        #expect(machine.currentSID == nil)
    }
}

@Suite("Backoff and error mapping (no I/O)")
struct BackoffTests {
    @Test func backoffTable() {
        let expected: [(Int, Int64)] = [
            (0, 0), (1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 32), (7, 64), (8, 128), (9, 256), (10, 300),
            (11, 300), (50, 300), (10_000, 300),
        ]
        for (failures, seconds) in expected {
            #expect(LoginBackoff.delay(consecutiveFailures: failures) == .seconds(seconds), "failures \(failures)")
        }
    }

    @Test func backoffRetryAfter() {
        #expect(LoginBackoff.delay(consecutiveFailures: 1, retryAfter: .seconds(10)) == .seconds(10))
        #expect(LoginBackoff.delay(consecutiveFailures: 5, retryAfter: .seconds(3)) == .seconds(16))
        #expect(LoginBackoff.delay(consecutiveFailures: 1, retryAfter: .seconds(3600)) == .seconds(300))
    }

    @Test func errorMapping() {
        func map(_ status: Int, _ body: String, _ context: PiHoleErrorMapping.Context = .authenticated, retry: String? = nil)
            -> PiHoleError
        {
            PiHoleErrorMapping.error(status: status, body: Data(body.utf8), retryAfterHeader: retry, context: context)
        }
        let wrong = map(401, #"{"session":{"valid":false,"message":"password incorrect"},"took":0.1}"#, .login)
        #expect(wrong.code == .wrongPassword)
        #expect(wrong.message == "password incorrect")
        #expect(map(401, #"{"error":{"key":"unauthorized","message":"Unauthorized","hint":null}}"#).code == .unauthorized)
        let seats = map(429, #"{"error":{"key":"api_seats_exceeded","message":"API seats exceeded","hint":"increase webserver.api.max_sessions"}}"#, .login)
        #expect(seats.code == .seatsExceeded)
        #expect(seats.message.contains("API seats exceeded"))
        let limited = map(429, #"{"error":{"key":"rate_limiting","message":"Rate-limiting login attempts","hint":null}}"#, .login, retry: "7")
        #expect(limited.code == .rateLimited)
        #expect(limited.retryAfter == .seconds(7))
        #expect(map(400, #"{"error":{"key":"bad_request","message":"Spaces"}}"#).code == .badRequest)
        #expect(map(404, #"{"took":0.1}"#).code == .notFound)
        #expect(map(503, "<html>").code == .server)
        #expect(map(418, "").code == .unexpectedResponse)
    }

    @Test func descriptionHasNoPassword() {
        let connection = PiHoleConnection(baseURL: "http://x", password: "hunter2")
        #expect(!connection.description.contains("hunter2"))
    }
}


@Suite("HTTP client factory")
struct HTTPClientFactoryTests {
    @Test func httpsWithoutVerification() async throws {
        let client = try await PiHoleClient.makeHTTPClient(
            for: PiHoleConnection(baseURL: "https://pi.hole", password: "x", tls: .insecure))
        try await client.shutdown()
    }

    @Test func missingCAFileIsReported() async {
        let error = await #expect(throws: PiHoleError.self) {
            _ = try await PiHoleClient.makeHTTPClient(
                for: PiHoleConnection(baseURL: "https://pi.hole", password: "x", tls: .caFile("/nonexistent/ca.pem")))
        }
        #expect(error?.code == .tls)
        #expect(error?.message.contains("/nonexistent/ca.pem") == true)
    }
}
