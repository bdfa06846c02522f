/// The wait before a poll loop's next read: its interval while reads succeed, and sooner after a
/// read that failed (5 s, then twice as long each time, never longer than the interval). One lost
/// answer must not show an upstream away for a whole interval, which may be an hour.
public struct PollPace: Sendable {
    public static let firstRetry: Duration = .seconds(5)

    public let interval: Duration
    private var failuresInARow = 0

    public init(interval: Duration) {
        self.interval = interval
    }

    /// Records how the read that just ended went. - Returns: how long to wait for the next.
    public mutating func next(afterSuccess succeeded: Bool) -> Duration {
        guard !succeeded else {
            failuresInARow = 0
            return interval
        }
        failuresInARow += 1
        return min(interval, Self.firstRetry * (1 << min(failuresInARow - 1, 20)))
    }
}
