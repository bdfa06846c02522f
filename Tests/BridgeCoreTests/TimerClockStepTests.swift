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
    /// A wall clock that a test steps, as NTP would.
    final class SteppedWallClock: Sendable {
        private let offset = Mutex<TimeInterval>(0)
        var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }
        func step(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
    }

    @Test(arguments: [3600.0, -3600.0])
    func aStepWhileRunningNeitherFiresEarlyNorHoldsBack(step: TimeInterval) async throws {
        let wall = SteppedWallClock()
        let store = try TimerStore(directory: temporaryStateDirectory(), logger: Logger(label: "timers"), wallClock: { wall.now })
        let timers = IntegrationTimers(store: store, integration: "test")
        let promised = ContinuousClock.now
        try await timers.set(key: "x", restore: nil, after: .seconds(2))
        wall.step(by: step)
        let firedAt = Mutex<ContinuousClock.Instant?>(nil)
        let runner = Task {
            await timers.run { _ in
                firedAt.withLock { $0 = $0 ?? .now }
                return true
            }
        }
        // Late: a store waiting on the wall clock would hold the timer for the hour stepped back.
        try await waitUntil("the timer fires", timeout: .seconds(60)) { firedAt.withLock { $0 != nil } }
        runner.cancel()
        await runner.value
        // Early: one waiting on the wall clock would fire at once after the step forward.
        let elapsed = try #require(firedAt.withLock { $0 }) - promised
        #expect(elapsed >= .seconds(2), "fired after \(elapsed)")
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
