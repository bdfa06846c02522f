#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText
import UpstreamHTTP

/// The token life cycle as a pure value.
///
/// No I/O and no clock of its own: every `mutating` method takes `now` and returns what
/// ``BellasReefClient`` must do. The rules:
///
/// - one token for all three services, obtained lazily on first need;
/// - at most one login or refresh in flight; other callers wait for it, or go on with the
///   old token while it is still valid;
/// - renewal before `exp` (``BellasReefToken/renewAt``): a refresh when the server gave a
///   refresh token, a login otherwise; a failed refresh falls back to a login at once;
/// - on a 401: one fresh login, one retry, then fail;
/// - a failed login starts an exponential backoff (``LoginBackoff``); while it lasts, callers
///   without a valid token fail with `.backingOff` and no request is made.
public struct BellasReefAuthStateMachine: Sendable {
    public enum State: Sendable, Equatable {
        /// No token; the next caller logs in (unless backing off).
        case noToken
        /// A first login is in flight; callers wait.
        case loggingIn
        /// A token is believed valid.
        case active(BellasReefToken)
        /// A renewal is in flight; the old token serves until it expires.
        case renewing(BellasReefToken)
    }

    /// What a caller that needs a token must do.
    public enum TokenAction: Sendable, Equatable {
        /// Send this access token.
        case use(String)
        /// `POST /api/auth/login`, then report `loginSucceeded` / `loginFailed`.
        case startLogin
        /// `POST /api/auth/refresh` with this refresh token, then report `loginSucceeded` / `refreshFailed`.
        case startRefresh(refreshToken: String)
        /// Another caller is obtaining a token: wait for its result.
        case waitForLogin
        /// Fail at once, without a request.
        case fail(BellasReefError)
    }

    /// What to do after a request sent with a token was answered 401.
    public enum RejectionAction: Sendable, Equatable {
        /// Obtain a token again (logging in at most once) and retry the request once.
        case retryWithFreshToken
        /// The retry was refused too: give up.
        case fail(BellasReefError)
    }

    public private(set) var state: State = .noToken
    /// Failed logins since the last successful one.
    public private(set) var consecutiveFailures = 0
    /// No login may be attempted before this instant.
    public private(set) var backoffUntil: Date?
    /// The error of the last failed login, repeated in `.backingOff` messages.
    public private(set) var lastLoginError: BellasReefError?
    /// Logins started (successful or not).
    public private(set) var loginCount = 0
    /// Refreshes started (successful or not).
    public private(set) var refreshCount = 0

    public init() {}

    /// A caller needs a token.
    public mutating func tokenNeeded(now: Date) -> TokenAction {
        switch state {
        case .loggingIn:
            return .waitForLogin
        case .renewing(let token):
            return token.isExpired(at: now) ? .waitForLogin : .use(token.accessToken)
        case .active(let token):
            guard token.needsRenewal(at: now) else { return .use(token.accessToken) }
            if let refreshToken = token.refreshToken {
                state = .renewing(token)
                refreshCount += 1
                return .startRefresh(refreshToken: refreshToken)
            }
            if let backingOff = backoffFailure(now: now) {
                return token.isExpired(at: now) ? .fail(backingOff) : .use(token.accessToken)
            }
            state = .renewing(token)
            loginCount += 1
            return .startLogin
        case .noToken:
            if let backingOff = backoffFailure(now: now) { return .fail(backingOff) }
            state = .loggingIn
            loginCount += 1
            return .startLogin
        }
    }

    /// The login or refresh started by this machine succeeded.
    public mutating func loginSucceeded(_ token: BellasReefToken) {
        state = .active(token)
        consecutiveFailures = 0
        backoffUntil = nil
        lastLoginError = nil
    }

    /// The refresh started by `.startRefresh` failed: the refresh token is dropped and the
    /// caller logs in at once, reporting as for `.startLogin`.
    public mutating func refreshFailed() {
        if case .renewing(let token) = state {
            state = .renewing(BellasReefToken(replacing: token))
        } else {
            state = .loggingIn
        }
        loginCount += 1
    }

    /// The login started by `.startLogin` failed. Returns the backoff delay now in force.
    /// A renewal that fails leaves the old token in use while it is still valid.
    @discardableResult
    public mutating func loginFailed(_ error: BellasReefError, now: Date) -> Duration {
        endLoginAttempt(now: now)
        consecutiveFailures += 1
        lastLoginError = error
        let delay = LoginBackoff.delay(consecutiveFailures: consecutiveFailures, retryAfter: error.retryAfter)
        backoffUntil = now.addingTimeInterval(delay.seconds)
        return delay
    }

    /// The login started by `.startLogin` was cancelled (the bridge is stopping): no failure is
    /// counted, and the next caller starts again.
    public mutating func loginCancelled(now: Date) {
        endLoginAttempt(now: now)
    }

    private mutating func endLoginAttempt(now: Date) {
        if case .renewing(let token) = state, !token.isExpired(at: now) {
            state = .active(BellasReefToken(replacing: token))
        } else {
            state = .noToken
        }
    }

    /// A request sent with `accessToken` was answered 401 (or with the core's plain-text 500).
    ///
    /// - Parameter isRetry: `true` when the refused request was already the one retry.
    public mutating func requestRejected(
        accessToken: String, isRetry: Bool, error: BellasReefError
    ) -> RejectionAction {
        switch state {
        case .active(let token) where token.accessToken == accessToken:
            state = .noToken
        default:
            break
        }
        return isRetry ? .fail(error) : .retryWithFreshToken
    }

    /// The `.backingOff` error while the backoff window is open.
    private func backoffFailure(now: Date) -> BellasReefError? {
        guard let until = backoffUntil, now < until else { return nil }
        let remaining = until.timeIntervalSince(now)
        var text = "not logging in for another \(remaining.fixedPoint(digits: 1)) s after "
            + "\(consecutiveFailures) failed login(s)"
        if let last = lastLoginError { text += "; last: \(last.code) \(last.message)" }
        var error = BellasReefError(.backingOff, text, retryAfter: .milliseconds(Int64(remaining * 1000)))
        error.lastLoginCode = lastLoginError?.code
        return error
    }
}

extension BellasReefToken {
    /// The same token without its refresh token, renewed by a login from now on.
    init(replacing token: BellasReefToken) {
        self.init(
            accessToken: token.accessToken, refreshToken: nil, expiresAt: token.expiresAt, renewAt: token.renewAt)
    }
}

extension Duration {
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
