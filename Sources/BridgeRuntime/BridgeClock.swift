#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bridge's time: what its waits are measured on, what a user reads, and how it is woken.
/// One is passed to everything that waits (timers, polls, time limits), so that a test moves
/// time by hand (``ManualClock``) where the bridge runs on ``SystemClock``.
public protocol BridgeClock: Sendable {
    /// Monotonic: every wait is measured on it, so a step of the wall clock (NTP, a dead RTC
    /// battery) moves no wait.
    var now: ContinuousClock.Instant { get }
    /// The wall clock: what a user reads (`restore_at`, `read_at`) and what the timer file keeps.
    var wallNow: Date { get }
    /// Calls `fire` once at `deadline` (soon, on the bridge's loop, if it has passed) unless the
    /// alarm is cancelled first.
    func alarm(at deadline: ContinuousClock.Instant, _ kind: AlarmKind, _ fire: @escaping @Sendable () -> Void) -> ClockAlarm
}

/// What an alarm is for. A test clock tells a task that waits (`wait`) from one that runs under
/// a bound, which is still busy: `limit` (a time limit, a slow notice: the work under it may wait
/// on the clock itself) or `request` (an exchange with another machine, which waits on nothing the
/// clock moves: the clock is not settled while one is in flight).
public enum AlarmKind: Sendable {
    case wait
    case limit
    case request
}

/// An alarm set on a ``BridgeClock``.
public enum ClockAlarm: Sendable {
    case loop(LoopTimer)
    case manual(ManualClock, id: Int)

    /// Without effect once it has fired.
    public func cancel() {
        switch self {
        case .loop(let timer): timer.cancel()
        case .manual(let clock, let id): clock.cancel(id)
        }
    }
}

extension BridgeClock {
    /// Returns at `deadline`, or at once when the task is cancelled.
    public func sleep(until deadline: ContinuousClock.Instant) async {
        await Wakeup().wait(until: deadline, on: self)
    }
}

/// The machine's clocks, and alarms on the bridge's event loop.
public struct SystemClock: BridgeClock {
    public init() {}

    public var now: ContinuousClock.Instant { .now }

    public var wallNow: Date { Date() }

    public func alarm(at deadline: ContinuousClock.Instant, _ kind: AlarmKind, _ fire: @escaping @Sendable () -> Void) -> ClockAlarm {
        .loop(LoopTimer(in: deadline - .now, fire))
    }
}

extension BridgeClock where Self == SystemClock {
    public static var system: SystemClock { SystemClock() }
}
