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
    /// What a lost probe (failing, stale, or unread for `staleAfter`) does to an armed interlock.
    var onProbeLost: OnProbeLost = .keep

    /// Why an interlock tripped: its probe read above the limit, or it lost its probe (`off`).
    enum TripReason: String, Sendable {
        case above
        case probeLost = "probe_lost"
    }

    enum OnProbeLost: String, Sendable, CaseIterable {
        /// The outlet stays as it is: a lost probe proves no heat.
        case keep
        /// The outlet is turned off and held until a fresh reading is back down (fail safe).
        case off
    }

    /// Whether the probe counts as lost: its last read failed, its reading is stale, or none came
    /// within `staleAfter` of `watchingSince` (the start, or the interlock's re-arming).
    func probeLost(readAt: Date?, failed: Bool, now: Date, watchingSince: Date) -> Bool {
        failed || now.timeIntervalSince(readAt ?? watchingSince) > Double(staleAfter.components.seconds)
    }

    /// The phase the reading asks for, given the phase now. A tripped one is asked only once its
    /// hold's timer fell due: `minOff` is over by then, and the reading says whether it may end.
    /// - Parameters:
    ///   - value: the last reading; `nil` when the last read failed.
    ///   - readAt: when that reading was taken; `nil` before any.
    ///   - watchingSince: since when an armed interlock watches: its probe is lost after `staleAfter` without a reading.
    func phase(value: Double?, readAt: Date?, failed: Bool, now: Date, in phase: Phase, watchingSince: Date? = nil) -> Phase {
        // A stale or failed probe holds what it does: it is no proof the heater cooled, nor that it
        // overheats; unless the interlock is to fail safe.
        guard let readAt, let value, !probeLost(readAt: readAt, failed: failed, now: now, watchingSince: readAt) else {
            if phase == .armed, onProbeLost == .off, let watchingSince,
               probeLost(readAt: readAt, failed: failed, now: now, watchingSince: watchingSince) {
                return .tripped
            }
            return phase
        }
        let cooled = value <= above - hysteresis
        switch phase {
        case .armed: return value > above ? .tripped : .armed
        case .tripped: return cooled ? .armed : .tripped
        case .overridden: return cooled ? .armed : .overridden
        }
    }
}

