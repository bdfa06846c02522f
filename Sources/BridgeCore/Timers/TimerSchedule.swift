#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The pending timers and when each is due on the monotonic clock: a pure value, no I/O, no
/// clock of its own (every method takes `now`), so its rules are tested directly.
struct TimerSchedule: Sendable {
    struct Entry: Sendable {
        var timer: PersistedTimer
        var deadline: ContinuousClock.Instant
        /// It fell due, and its restore asked to be tried again later.
        var isRetry = false
    }

    private(set) var entries: [TimerID: Entry] = [:]

    /// Timers read from the file: each gets a monotonic deadline as far away as its wall-clock
    /// time is now, rounded up so that it never fires before it; those overdue (the bridge was
    /// down) are due at once.
    init(loaded timers: [PersistedTimer], wallNow: Date, now: ContinuousClock.Instant) {
        for timer in timers {
            let remaining = max(0, timer.dueAt.timeIntervalSince(wallNow))
            entries[timer.id] = Entry(timer: timer, deadline: now + .microseconds(Int64((remaining * 1_000_000).rounded(.up))))
        }
    }

    /// Adds `timer`, replacing any for the same key. - Returns: the replaced timer.
    @discardableResult
    mutating func set(_ timer: PersistedTimer, deadline: ContinuousClock.Instant) -> PersistedTimer? {
        entries.updateValue(Entry(timer: timer, deadline: deadline), forKey: timer.id)?.timer
    }

    @discardableResult
    mutating func remove(_ id: TimerID) -> PersistedTimer? {
        entries.removeValue(forKey: id)?.timer
    }

    /// Removes `timer` only if it is still the one scheduled (not replaced by a newer command meanwhile).
    mutating func complete(_ timer: PersistedTimer) -> Bool {
        guard entries[timer.id]?.timer == timer else { return false }
        entries[timer.id] = nil
        return true
    }

    /// Tries a timer whose restore failed again after `delay`; its promise stands.
    mutating func retry(_ timer: PersistedTimer, after delay: Duration, now: ContinuousClock.Instant) {
        guard entries[timer.id]?.timer == timer else { return }
        entries[timer.id]?.deadline = now + delay
        entries[timer.id]?.isRetry = true
    }

    /// Makes `integration`'s timers waiting for a retry due now. - Returns: whether there were any.
    mutating func retryNow(integration: String, now: ContinuousClock.Instant) -> Bool {
        let waiting = entries.filter { $0.value.timer.integration == integration && $0.value.isRetry && $0.value.deadline > now }.keys
        for id in waiting { entries[id]?.deadline = now }
        return !waiting.isEmpty
    }

    func pending(integration: String) -> [PersistedTimer] {
        entries.values.map(\.timer).filter { $0.integration == integration }.sorted { $0.dueAt < $1.dueAt }
    }

    func due(integration: String, now: ContinuousClock.Instant) -> [PersistedTimer] {
        entries.values.filter { $0.timer.integration == integration && $0.deadline <= now }
            .sorted { $0.deadline < $1.deadline }.map(\.timer)
    }

    func nextDeadline(integration: String) -> ContinuousClock.Instant? {
        entries.values.filter { $0.timer.integration == integration }.map(\.deadline).min()
    }

    var all: [PersistedTimer] {
        entries.values.map(\.timer).sorted { ($0.integration, $0.key) < ($1.integration, $1.key) }
    }
}
