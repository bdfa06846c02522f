@testable import BridgeCore
import BridgeTestSupport
import Foundation
import Logging
import MQTTTestSupport
import Synchronization
import Testing

/// Issue 11: a wall-clock step (NTP correcting a board without a real-time clock by an hour, say)
/// neither fires a timer early nor holds it back while the bridge runs; across a restart it moves
/// a timer by no more than the step.
@Suite struct TimerClockStepTests {
    @Test(arguments: [3600.0, -3600.0])
    func aStepWhileRunningNeitherFiresEarlyNorHoldsBack(step: TimeInterval) async throws {
        let clock = ManualClock()
        let store = try TimerStore(directory: temporaryStateDirectory(), logger: Logger(label: "timers"), clock: clock)
        let timers = IntegrationTimers(store: store, integration: "test")
        let promised = clock.now
        try await timers.set(key: "x", restore: nil, after: .seconds(2))
        clock.stepWallClock(by: .seconds(step))
        let firedAt = Mutex<ContinuousClock.Instant?>(nil)
        let runner = Task {
            await timers.run { _ in
                firedAt.withLock { $0 = $0 ?? clock.now }
                return true
            }
        }
        // Polled: nothing else says that the runner has looked at its timer and waits.
        try await waitUntil("the runner waits", timeout: .seconds(10)) { clock.waitingTasks > 0 }
        try await clock.advance(by: .seconds(2))
        // Held back: a store waiting on the wall clock would wait for the hour stepped back.
        #expect(firedAt.withLock { $0 != nil })
        runner.cancel()
        await runner.value
        // Early: one waiting on the wall clock would have fired at once after the step forward.
        let elapsed = try #require(firedAt.withLock { $0 }) - promised
        #expect(elapsed == .seconds(2), "fired after \(elapsed)")
    }

    /// The file keeps wall-clock due times (the only time that means anything after a reboot), so
    /// a step while the bridge is down moves a timer by exactly the step, never more: forward,
    /// it is due sooner (at once if the step passes it); back, later.
    @Test(arguments: [3600.0, -3600.0, 300.0, -300.0])
    func aStepAcrossARestartMovesATimerByTheStepAtMost(step: TimeInterval) throws {
        let written = Date(timeIntervalSince1970: 1_800_000_000)
        let timer = PersistedTimer(integration: "test", key: "x", restore: nil, dueAt: written.addingTimeInterval(600))
        let start = ContinuousClock.now
        let schedule = TimerSchedule(loaded: [timer], wallNow: written.addingTimeInterval(step), now: start)
        let wait = try #require(schedule.nextDeadline(integration: "test")) - start
        #expect(wait == .seconds(max(0, 600 - step)))
    }
}
