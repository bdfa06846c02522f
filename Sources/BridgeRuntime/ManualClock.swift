#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A clock that moves only when told (`advance(by:)`): the bridge's waits on virtual time, for
/// tests. Like swift-nio's `NIOAsyncTestingEventLoop.advanceTime`, an advance fires every alarm
/// due by then, in deadline order, once; a loop that sets its next alarm from the advanced time
/// waits for the next advance. An alarm already due when it is set fires at once.
public final class ManualClock: BridgeClock {
    private struct Alarm {
        var deadline: ContinuousClock.Instant
        var kind: AlarmKind
        var fire: @Sendable () -> Void
    }

    private struct State {
        var elapsed: Duration = .zero
        /// A step of the wall clock alone, as NTP makes: no wait moves with it.
        var wallStep: Duration = .zero
        var nextID = 0
        var alarms: [Int: Alarm] = [:]
    }

    private let startedAt = ContinuousClock.now
    private let startedAtWall: Date
    private let state = Mutex(State())

    /// Starts now, on a whole second by default: the timer file keeps due times in whole
    /// seconds, so a timer set for 2 s is then due in exactly 2 s.
    public init(wallNow: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        startedAtWall = wallNow
    }

    public var now: ContinuousClock.Instant { startedAt + state.withLock(\.elapsed) }

    public var wallNow: Date {
        let (elapsed, step) = state.withLock { ($0.elapsed, $0.wallStep) }
        return startedAtWall.addingTimeInterval((elapsed + step).timeInterval)
    }

    /// Tasks waiting on the clock (alarms of kind `wait` set and not yet fired or cancelled): a
    /// test that must know a loop waits asks this.
    public var waitingTasks: Int { state.withLock { $0.alarms.values.count { $0.kind == .wait } } }

    /// Requests to other machines under a deadline on this clock, not yet answered.
    public var requestsInFlight: Int { state.withLock { $0.alarms.values.count { $0.kind == .request } } }

    public func alarm(at deadline: ContinuousClock.Instant, _ kind: AlarmKind, _ fire: @escaping @Sendable () -> Void) -> ClockAlarm {
        let id: Int? = state.withLock { state in
            guard deadline > startedAt + state.elapsed else { return nil }
            state.nextID += 1
            state.alarms[state.nextID] = Alarm(deadline: deadline, kind: kind, fire: fire)
            return state.nextID
        }
        guard let id else {
            // Not inline: the caller may hold what `fire` takes, as on the system clock.
            BridgeEventLoop.loop.execute(fire)
            return .manual(self, id: 0)
        }
        return .manual(self, id: id)
    }

    func cancel(_ id: Int) {
        _ = state.withLock { $0.alarms.removeValue(forKey: id) }
    }

    /// Moves time on by `amount` and fires the alarms due by then, earliest first, once what the
    /// last advance (or a command) woke waits again; returns once what these woke waits again.
    ///
    /// "Waits again" is judged by the alarms, as the bridge's tasks tell nothing else: the number
    /// of kind `wait` has not changed for `quiet` of real time and is back to what it was before,
    /// and no request is in flight. A task that runs under a time limit or a slow notice is busy,
    /// not waiting: those alarms are not counted. A request's deadline is, so that a poll whose
    /// request is in flight is not taken for settled, even while another task's wait stands in
    /// for its own; and no advance moves time past a deadline while its request is still out.
    /// - Throws: ``Unsettled`` when that takes longer than `settling` of real time (a loop that
    ///   no longer waits, a request never answered, or an alarm that wakes nothing that waits
    ///   again).
    public func advance(by amount: Duration, quiet: Duration = .milliseconds(30), settling: Duration = .seconds(10)) async throws {
        let limit = ContinuousClock.now + settling
        let before = try await quietAlarmCount(quiet: quiet, limit: limit, atLeast: 0)
        let due = state.withLock { state in
            state.elapsed += amount
            let now = startedAt + state.elapsed
            let due = state.alarms.filter { $0.value.deadline <= now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.alarms[id] = nil }
            return due.map(\.value.fire)
        }
        for fire in due { fire() }
        _ = try await quietAlarmCount(quiet: quiet, limit: limit, atLeast: before)
    }

    /// The number of waiting tasks, once it and the number of requests in flight have not changed
    /// for `quiet`, it is at least `atLeast` and no request is in flight.
    private func quietAlarmCount(quiet: Duration, limit: ContinuousClock.Instant, atLeast: Int) async throws -> Int {
        var count = (waitingTasks, requestsInFlight)
        var since = ContinuousClock.now
        // Polled: see above.
        while count.0 < atLeast || count.1 > 0 || ContinuousClock.now - since < quiet {
            guard ContinuousClock.now < limit else { throw Unsettled(expected: atLeast, set: count.0, inFlight: count.1) }
            try await Task.sleep(for: .milliseconds(2))
            let now = (waitingTasks, requestsInFlight)
            if now != count { (count, since) = (now, .now) }
        }
        return count.0
    }

    public struct Unsettled: Error, CustomStringConvertible {
        public let expected: Int
        public let set: Int
        public let inFlight: Int
        public var description: String {
            "after an advance, \(set) of \(expected) tasks waited again, \(inFlight) requests still in flight"
        }
    }

    /// Steps the wall clock alone, as NTP would; waits are not moved.
    public func stepWallClock(by amount: Duration) {
        state.withLock { $0.wallStep += amount }
    }
}
