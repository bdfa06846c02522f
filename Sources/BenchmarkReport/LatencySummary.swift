/// Percentiles of a set of latencies, nearest-rank: pXX is the smallest sample that at least XX %
/// of the samples do not exceed. In milliseconds, the unit every figure of the benchmark uses.
public struct LatencySummary: Sendable, Equatable {
    public let count: Int
    public let p50: Double
    public let p90: Double
    public let p99: Double
    public let max: Double

    /// `nil` for no samples: a figure that was not measured is not zero.
    public init?(milliseconds samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        count = sorted.count
        p50 = Self.percentile(50, of: sorted)
        p90 = Self.percentile(90, of: sorted)
        p99 = Self.percentile(99, of: sorted)
        max = sorted[sorted.count - 1]
    }

    public init(count: Int, p50: Double, p90: Double, p99: Double, max: Double) {
        self.count = count
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    public init?(_ durations: [Duration]) {
        self.init(milliseconds: durations.map(\.milliseconds))
    }

    /// The nearest-rank percentile of ascending `sorted`, which is not empty.
    static func percentile(_ percent: Int, of sorted: [Double]) -> Double {
        let rank = (percent * sorted.count + 99) / 100  // ceil(percent / 100 × count)
        return sorted[Swift.max(rank, 1) - 1]
    }
}

extension Duration {
    /// This duration in milliseconds, with the fraction.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
