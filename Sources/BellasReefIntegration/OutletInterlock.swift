#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// "When the probe is above `above`, the outlet off for at least `minOff`": the phase a reading
/// asks for. A pure value, tested without I/O; `ReefInterlocks` carries out what it decides.
struct OutletInterlock: Sendable, Equatable {
    enum Phase: String, Sendable {
        /// Watching: a fresh reading above the limit trips it.
        case armed
        /// The outlet is held off (a persisted timer restores it).
        case tripped
        /// A user's command ended the hold; it re-arms once the probe is back down.
        case overridden
    }

    let above: Double
    /// The outlet comes back (and an overridden interlock re-arms) only once the reading is
    /// this far below `above`: a reading that wobbles around the limit switches nothing back and forth.
    let hysteresis: Double
    /// Whole seconds, as configured.
    let minOff: Duration
    /// A reading older than this (whole seconds) proves nothing: the interlock neither trips nor
    /// releases on it.
    let staleAfter: Duration

    /// The phase the reading asks for, given the phase now. A tripped one is asked only once its
    /// hold's timer fell due: `minOff` is over by then, and the reading says whether it may end.
    /// - Parameters:
    ///   - value: the last reading; `nil` when the last read failed.
    ///   - readAt: when that reading was taken; `nil` before any.
    func phase(value: Double?, readAt: Date?, failed: Bool, now: Date, in phase: Phase) -> Phase {
        // A stale or failed probe holds what it does: it is no proof the heater cooled, nor that it overheats.
        guard let readAt, let value, !failed, now.timeIntervalSince(readAt) <= Double(staleAfter.components.seconds) else { return phase }
        let cooled = value <= above - hysteresis
        switch phase {
        case .armed: return value > above ? .tripped : .armed
        case .tripped: return cooled ? .armed : .tripped
        case .overridden: return cooled ? .armed : .overridden
        }
    }
}

