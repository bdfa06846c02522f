/// How long to wait before the next connection attempt.
///
/// Exponential back-off, capped, with downward jitter (so the cap is never exceeded).
/// `delay(afterFailures: n, random: r)` = `min(initialDelay * 2^(n-1), maximumDelay) * (1 - jitter * r)`.
///
/// With the defaults (1 s, 30 s, jitter 0.2):
///
/// | failures n | base   | range with jitter |
/// |-----------:|-------:|------------------:|
/// | 0          | 0 s    | 0 s               |
/// | 1          | 1 s    | 0.8 s ... 1 s     |
/// | 2          | 2 s    | 1.6 s ... 2 s     |
/// | 3          | 4 s    | 3.2 s ... 4 s     |
/// | 4          | 8 s    | 6.4 s ... 8 s     |
/// | 5          | 16 s   | 12.8 s ... 16 s   |
/// | 6 and more | 30 s   | 24 s ... 30 s     |
///
/// Jitter spreads the reconnects of many clients after a broker restart.
public struct MQTTReconnectPolicy: Sendable, Equatable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// Fraction in 0...1 by which a delay may be shortened at random.
    public var jitter: Double

    public init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), jitter: Double = 0.2) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = jitter
    }

    /// Pure: the same inputs always give the same delay. `random` is in `0..<1` (injected for tests).
    public func delay(afterFailures n: Int, random: Double) -> Duration {
        guard n > 0 else { return .zero }
        let initial = max(0, Self.seconds(initialDelay))
        let maximum = max(0, Self.seconds(maximumDelay))
        // 2^62 would overflow nothing in Double, but any exponent past ~60 is capped anyway.
        let exponent = Double(min(n - 1, 60))
        let base = min(initial * pow2(exponent), maximum)
        let clampedJitter = min(max(jitter, 0), 1)
        let clampedRandom = min(max(random, 0), 1)
        let seconds = base * (1 - clampedJitter * clampedRandom)
        return .nanoseconds(Int64((seconds * 1_000_000_000).rounded()))
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 {
            result *= 2
            remaining -= 1
        }
        return result
    }
}
