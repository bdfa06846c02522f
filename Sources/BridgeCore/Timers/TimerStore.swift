#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Logging
import Synchronization

/// Every pending timer of every integration, kept in `bridge.state_dir` so that what a timed
/// command promised is carried out even across a restart. Each integration runs its own timers
/// (`IntegrationTimers.run`); a change to the schedule wakes the integration it belongs to.
public final class TimerStore: Sendable {
    private let file: TimerFile
    private let schedule: Mutex<TimerSchedule>
    /// Where changes are saved, one at a time in order, away from the bridge's event loop: a
    /// write and its fsync take milliseconds (tens on an SD card), and on the loop they held up
    /// every command and every upstream read meanwhile.
    private let saves = DispatchQueue(label: "home2mqtt.timers")
    /// The timers of the changes handed to `saves` and not made yet: while a timer has any, a
    /// change to it that looks like nothing from here may not be one once they are made.
    private let queuedSaves = Mutex<[TimerID: Int]>([:])
    private let wakeups = Mutex<[String: Wakeup]>([:])
    /// The timers `run` is carrying out now: one replaced or dropped meanwhile is superseded.
    private let firing = Mutex<[TimerID: PersistedTimer]>([:])
    private let logger: Logger
    /// A restore that failed (the upstream is away) is tried again after this long.
    private let retryDelay: Duration
    /// Its wall clock is read only to write due times into the file and to read them back at a
    /// start: while the bridge runs, waits are measured on its monotonic clock, so a clock step
    /// (NTP, a dead RTC battery) moves no timer.
    let clock: any BridgeClock
    /// Signalled when a timer is set or ends (what `bridge/health` counts).
    private let changed: Wakeup?

    /// Opens (and creates) the state directory and reads the timers saved there. An unreadable
    /// file is logged and set aside, never a reason not to start.
    public init(
        directory: String, logger: Logger, retryDelay: Duration = .seconds(15), clock: any BridgeClock = .system, changed: Wakeup? = nil
    ) throws(ConfigError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ConfigError(key: "bridge.state_dir", "cannot create '\(directory)': \(fileErrorText(error))")
        }
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw ConfigError(key: "bridge.state_dir", "'\(directory)' is not writable")
        }
        file = TimerFile(directory: directory)
        self.logger = logger
        self.retryDelay = retryDelay
        self.clock = clock
        self.changed = changed
        var loaded: [PersistedTimer] = []
        do {
            loaded = try file.load()
        } catch {
            let aside = file.setAside()
            logger.error("the saved timers could not be read and were set aside; no timer is pending", metadata: [
                "file": "\(file.url.path)", "moved_to": "\(aside)", "error": "\(error)",
            ])
        }
        schedule = Mutex(TimerSchedule(loaded: loaded, wallNow: clock.wallNow, now: clock.now))
        if !loaded.isEmpty {
            logger.info("pending timers read", metadata: ["count": "\(loaded.count)", "file": "\(file.url.path)"])
        }
    }

    /// Sets `timer` to fire after `delay`, replacing any for the same key, and saves.
    /// - Returns: the timer it replaced.
    func set(_ timer: PersistedTimer, after delay: Duration) async throws -> PersistedTimer? {
        let deadline = clock.now + delay
        let replaced = try await change(timer.id) { $0.set(timer, deadline: deadline) }
        wakeup(timer.integration).signal()
        return replaced
    }

    func remove(_ id: TimerID) async throws -> PersistedTimer? {
        let removed = try await change(id) { $0.remove(id) }
        if removed != nil { wakeup(id.integration).signal() }
        return removed
    }

    /// Removes `timer` if it is still the one set for its key. - Returns: whether it was.
    func complete(_ timer: PersistedTimer) async throws -> Bool {
        try await change(timer.id) { $0.complete(timer) }
    }

    /// Every integration's pending timers.
    var count: Int {
        schedule.withLock { $0.entries.count }
    }

    func pending(integration: String) -> [PersistedTimer] {
        schedule.withLock { $0.pending(integration: integration) }
    }

    /// Whether `timer`, which `run` is carrying out, was replaced or dropped meanwhile.
    func isSuperseded(_ timer: PersistedTimer) -> Bool {
        guard firing.withLock({ $0[timer.id] }) == timer else { return false }
        return schedule.withLock { $0.pending(integration: timer.integration) }.first { $0.key == timer.key } != timer
    }

    /// Brings the timers of `integration` waiting for a retry forward to now.
    func retryNow(integration: String) {
        if schedule.withLock({ $0.retryNow(integration: integration, now: clock.now) }) { wakeup(integration).signal() }
    }

    /// Carries out `integration`'s timers as they fall due, until the task is cancelled. `fire`
    /// returns whether the restore succeeded; if not, it is tried again after `retryDelay`.
    func run(integration: String, fire: @Sendable (PersistedTimer) async -> Bool) async {
        let wakeup = wakeup(integration)
        while !Task.isCancelled {
            for timer in schedule.withLock({ $0.due(integration: integration, now: clock.now) }) {
                firing.withLock { $0[timer.id] = timer }
                let succeeded = await fire(timer)
                firing.withLock { $0[timer.id] = nil }
                if succeeded {
                    _ = try? await complete(timer)
                } else {
                    schedule.withLock { $0.retry(timer, after: retryDelay, now: clock.now) }
                }
            }
            let next = schedule.withLock { $0.nextDeadline(integration: integration) }
            // At most an hour: a scene on until OFF is due in the year 9999, past what a timer can wait.
            let inAnHour = clock.now + .seconds(3600)
            await wakeup.wait(until: min(inAnHour, next ?? inAnHour), on: clock)
        }
    }

    /// Applies `update`, a change to timer `id`, once the schedule it leaves is saved; a change
    /// that cannot be saved is not made. One that changes no timer saves nothing and is made here
    /// at once: every plain (untimed) command cancels its object's timer, and there mostly is
    /// none; saving anyway would cost each such command a write and an fsync.
    private func change<T: Sendable>(_ id: TimerID, _ update: @escaping @Sendable (inout TimerSchedule) -> T) async throws -> T {
        let (mustSave, result) = schedule.withLock { schedule in
            var updated = schedule
            let result = update(&updated)
            return queuedSaves.withLock { queued in
                let mustSave = queued[id] != nil || updated.all != schedule.all
                if mustSave { queued[id, default: 0] += 1 }
                return (mustSave, result)
            }
        }
        guard mustSave else { return result }
        let made = try await withCheckedThrowingContinuation { continuation in
            saves.async {
                let made = Result { try self.saveThenMake(update) }
                self.queuedSaves.withLock { queued in
                    queued[id] = queued[id] == 1 ? nil : queued[id]! - 1
                }
                continuation.resume(with: made)
            }
        }
        changed?.signal()
        return made
    }

    /// On `saves`, so that no other change comes between the schedule read here and the one made.
    private func saveThenMake<T>(_ update: (inout TimerSchedule) -> T) throws -> T {
        var updated = schedule.withLock { $0 }
        _ = update(&updated)
        let timers = updated.all
        if timers != schedule.withLock(\.all) {
            do {
                try file.save(timers)
            } catch {
                logger.error("the timers could not be saved", metadata: ["file": "\(file.url.path)", "error": "\(error)"])
                throw error
            }
        }
        return schedule.withLock { update(&$0) }
    }

    private func wakeup(_ integration: String) -> Wakeup {
        wakeups.withLock { wakeups in
            if let existing = wakeups[integration] { return existing }
            let created = Wakeup()
            wakeups[integration] = created
            return created
        }
    }
}
