/// Login backoff policy shared by every upstream client: failed logins never become a storm.
public enum LoginBackoff {
    /// The longest the client waits between login attempts.
    public static let cap: Duration = .seconds(300)

    /// Delay before the next login may be attempted after `consecutiveFailures` failed logins.
    ///
    /// Exponential, doubling from one second, capped at five minutes:
    ///
    /// | consecutive failures | delay |
    /// |---|---|
    /// | 0 | 0 s (no backoff) |
    /// | 1 | 1 s |
    /// | 2 | 2 s |
    /// | 3 | 4 s |
    /// | 4 | 8 s |
    /// | 5 | 16 s |
    /// | 6 | 32 s |
    /// | 7 | 64 s |
    /// | 8 | 128 s |
    /// | 9 | 256 s |
    /// | 10 and more | 300 s (cap) |
    ///
    /// A server-supplied `retryAfter` wins when it is longer than the computed delay
    /// (it is still capped at five minutes, so a bogus header cannot lock the client out).
    public static func delay(consecutiveFailures: Int, retryAfter: Duration? = nil) -> Duration {
        guard consecutiveFailures > 0 else { return .zero }
        let exponent = min(consecutiveFailures - 1, 20)
        let seconds = min(Int64(1) << exponent, 300)
        var result = Duration.seconds(seconds)
        if let retryAfter, retryAfter > result {
            result = min(retryAfter, cap)
        }
        return result
    }
}
