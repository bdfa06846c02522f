import NIOCore

extension Duration {
    /// The same length as NIO's `TimeAmount`, for its deadlines and timeouts.
    public var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
