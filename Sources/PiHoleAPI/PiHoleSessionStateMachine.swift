import UpstreamHTTP

/// The Pi-hole session life cycle as a pure value.
///
/// No I/O and no clock of its own: every `mutating` method takes the inputs it needs
/// (`now` included) and returns an action for ``PiHoleClient`` to perform. This keeps the
/// rules unit-testable:
///
/// - one session for the life of the client, created lazily on first need;
/// - at most one login in flight; other callers wait for it;
/// - on 401 for an authenticated request: one fresh login, one retry, then fail;
/// - a login the Pi-hole refused starts an exponential backoff (``LoginBackoff``); one that got no
///   usable answer is tried again soon (a few seconds, jittered); while either lasts, callers that
///   need a login fail with `.backingOff` without any request;
/// - a successful login resets the backoff;
/// - a login whose answer was lost may still have made a session, holding one of the Pi-hole's
///   seats for 30 minutes: they are counted, and the next session ends them
///   (``PiHoleClient`` lists the sessions and deletes this client's others).
public struct PiHoleSessionStateMachine: Sendable {
    public enum State: Sendable, Equatable {
        /// No session; the next caller logs in (unless backing off).
        case noSession
        /// A login request is in flight.
        case loggingIn
        /// A session is believed valid.
        case active(sid: String)
    }

    /// What a caller that needs a session must do.
    public enum SessionAction: Sendable, Equatable {
        /// Use this SID in `X-FTL-SID`.
        case use(sid: String)
        /// Perform `POST /api/auth`, then report with `loginSucceeded` / `loginFailed`.
        case startLogin
        /// Another caller is logging in: wait for its result.
        case waitForLogin
        /// Fail at once, without a request.
        case fail(PiHoleError)
    }

    /// What to do after an authenticated request was answered 401.
    public enum RejectionAction: Sendable, Equatable {
        /// Obtain a session again (logging in at most once) and retry the request once.
        case retryWithFreshSession
        /// The retry was rejected too: give up.
        case fail(PiHoleError)
    }

    /// What to do on logout.
    public enum LogoutAction: Sendable, Equatable {
        /// `DELETE /api/auth` with this SID.
        case deleteSession(sid: String)
        /// A login is in flight: wait for it, then ask again.
        case waitForLogin
        /// Nothing to do.
        case none
    }

    public private(set) var state: State = .noSession
    /// Failed logins since the last successful one.
    public private(set) var consecutiveFailures: Int = 0
    /// No login may be attempted before this instant.
    public private(set) var backoffUntil: ContinuousClock.Instant?
    /// The error of the last failed login, repeated in `.backingOff` messages.
    public private(set) var lastLoginError: PiHoleError?
    /// Logins started (successful or not).
    public private(set) var loginCount: Int = 0
    /// Logins sent whose answer was lost since the sessions they may have made were last ended.
    public private(set) var loginsWithLostAnswers: Int = 0

    public init() {}

    /// The SID currently believed valid, if any.
    public var currentSID: String? {
        if case .active(let sid) = state { return sid }
        return nil
    }

    /// A caller needs a session.
    public mutating func sessionNeeded(now: ContinuousClock.Instant) -> SessionAction {
        switch state {
        case .active(let sid):
            return .use(sid: sid)
        case .loggingIn:
            return .waitForLogin
        case .noSession:
            if let until = backoffUntil, now < until {
                let remaining = until - now
                var text = "not logging in for another \(Self.format(remaining)) after \(consecutiveFailures) failed login(s)"
                if let last = lastLoginError { text += "; last: \(last.code) \(last.message)" }
                var error = PiHoleError(.backingOff, text, retryAfter: remaining)
                error.lastLoginCode = lastLoginError?.code
                return .fail(error)
            }
            state = .loggingIn
            loginCount += 1
            return .startLogin
        }
    }

    /// The login started by `.startLogin` succeeded.
    public mutating func loginSucceeded(sid: String) {
        state = .active(sid: sid)
        consecutiveFailures = 0
        backoffUntil = nil
        lastLoginError = nil
    }

    /// The login started by `.startLogin` failed. `answerLost`: the request may have reached the
    /// Pi-hole, but no usable answer came back (`jitter`, from 0 to 1, spreads the retry). Returns
    /// the backoff delay now in force.
    @discardableResult
    public mutating func loginFailed(
        _ error: PiHoleError, now: ContinuousClock.Instant, answerLost: Bool = false, jitter: Double = 0
    ) -> Duration {
        state = .noSession
        consecutiveFailures += 1
        lastLoginError = error
        let delay: Duration
        if answerLost || error.code == .transport {
            if answerLost { loginsWithLostAnswers += 1 }
            delay = Self.retryAfterNoAnswer + Self.retryAfterNoAnswer * min(max(jitter, 0), 1)
        } else {
            delay = LoginBackoff.delay(consecutiveFailures: consecutiveFailures, retryAfter: error.retryAfter)
        }
        backoffUntil = now + delay
        return delay
    }

    /// The login was cancelled (the bridge is stopping) after it may have been sent: no failure
    /// is counted, but the session it may have made is ended with the others at logout.
    public mutating func loginCancelled() {
        state = .noSession
        loginsWithLostAnswers += 1
    }

    /// The shortest wait before a login that got no answer is tried again (at most twice that).
    public static let retryAfterNoAnswer: Duration = .seconds(2)

    /// The sessions that lost logins may have made were ended.
    public mutating func lostLoginSessionsEnded() {
        loginsWithLostAnswers = 0
    }

    /// An authenticated request sent with `sid` was answered 401.
    ///
    /// - Parameter isRetry: `true` when the rejected request was already the one retry.
    public mutating func requestRejected(sid: String, isRetry: Bool, message: String = "Unauthorized") -> RejectionAction {
        if case .active(let current) = state, current == sid {
            state = .noSession
        }
        if isRetry {
            return .fail(PiHoleError(.unauthorized, message, status: 401))
        }
        return .retryWithFreshSession
    }

    /// The client shuts down or wants to give its seat back.
    public mutating func logout() -> LogoutAction {
        switch state {
        case .active(let sid):
            state = .noSession
            return .deleteSession(sid: sid)
        case .loggingIn:
            return .waitForLogin
        case .noSession:
            return .none
        }
    }

    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

