@testable import BridgeCore
import Foundation
import Testing

/// The schedule's rules, as a value: a timer read back never falls due before its time, and a
/// restore that said "not yet" can be brought forward by the integration that knows when to try.
@Suite struct TimerScheduleTests {
    let wallNow = Date(timeIntervalSince1970: 1_800_000_000.25)
    let now = ContinuousClock.now

    private func timer(dueIn seconds: TimeInterval) -> PersistedTimer {
        PersistedTimer(integration: "reef", key: "interlock/heater", restore: nil, dueAt: wallNow.addingTimeInterval(seconds))
    }

    /// 9 restarts in 12 released a hold 15 s late: its deadline, cut to whole milliseconds, fell
    /// a fraction of one before the due time, and the early fire was refused.
    @Test func aTimerReadBackIsNeverDueBeforeItsTime() {
        let remaining = 9.750_000_4
        let schedule = TimerSchedule(loaded: [timer(dueIn: remaining)], wallNow: wallNow, now: now)
        guard let deadline = schedule.nextDeadline(integration: "reef") else { Issue.record("no deadline"); return }
        #expect(deadline >= now + .nanoseconds(Int64(remaining * 1e9)))
        #expect(schedule.due(integration: "reef", now: now + .milliseconds(9750)).isEmpty)
    }

    @Test func aRetryIsBroughtForwardOnlyWhenOneWaits() {
        var schedule = TimerSchedule(loaded: [timer(dueIn: 0)], wallNow: wallNow, now: now)
        let beforeAnyRefusal = schedule.retryNow(integration: "reef", now: now)
        #expect(!beforeAnyRefusal, "due, but not refused yet: nothing to bring forward")
        let due = schedule.due(integration: "reef", now: now)
        #expect(due.count == 1)
        schedule.retry(due[0], after: .seconds(15), now: now)
        #expect(schedule.due(integration: "reef", now: now + .seconds(1)).isEmpty)
        let another = schedule.retryNow(integration: "unifi", now: now + .seconds(1))
        let its = schedule.retryNow(integration: "reef", now: now + .seconds(1))
        #expect(!another && its)
        #expect(schedule.due(integration: "reef", now: now + .seconds(1)) == due)
    }
}
