#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A probe's limits, and the alarm they make of its readings: a pure value, tested without I/O.
struct ProbeGuard: Sendable, Equatable {
    enum State: String, Sendable {
        case ok, low, high, stale, error
    }

    let low: Double?
    let high: Double?
    /// An alarm ends only once the reading is this far back inside its limit: a reading that
    /// wobbles around a limit raises one alarm, not one a poll.
    let hysteresis: Double
    /// A reading older than this no longer counts: the probe is `stale`, never its last value as
    /// if fresh.
    let staleAfter: Duration

    /// The state a reading makes, given the state before.
    /// - Parameters:
    ///   - value: the last reading; `nil` when the last read failed.
    ///   - readAt: when that reading was taken; `nil` before any.
    func state(value: Double?, readAt: Date?, failed: Bool, now: Date, previous: State) -> State {
        guard let readAt else { return failed ? .error : .stale }
        if now.timeIntervalSince(readAt) > Double(staleAfter.components.seconds) { return .stale }
        guard let value, !failed else { return .error }
        if let high {
            if value > high || (previous == .high && value > high - hysteresis) { return .high }
        }
        if let low {
            if value < low || (previous == .low && value < low + hysteresis) { return .low }
        }
        return .ok
    }

    var limitsPayload: [String: Double] {
        var limits = ["hysteresis": hysteresis, "stale_after": Double(staleAfter.components.seconds)]
        if let low { limits["low"] = low }
        if let high { limits["high"] = high }
        return limits
    }
}
