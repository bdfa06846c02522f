import BridgeRuntime
import Foundation
import Synchronization
import Testing

/// The test clock: alarms fire when an advance reaches them, earliest first and once; one set for
/// a time already past fires at once; an advance returns once what it woke waits again, and says
/// so when that never comes.
@Suite(.timeLimit(.minutes(1))) struct ManualClockTests {
    @Test func alarmsFireInDeadlineOrderOnceWhenAnAdvanceReachesThem() async throws {
        let clock = ManualClock()
        let fired = Mutex<[String]>([])
        let start = clock.now
        _ = clock.alarm(at: start + .seconds(3), .wait) { fired.withLock { $0.append("3 s") } }
        _ = clock.alarm(at: start + .seconds(1), .wait) { fired.withLock { $0.append("1 s") } }
        let cancelled = clock.alarm(at: start + .seconds(2), .wait) { fired.withLock { $0.append("2 s") } }
        cancelled.cancel()
        try await clock.advance(by: .milliseconds(999), settling: .seconds(1))
        #expect(fired.withLock { $0 }.isEmpty)
        // Nothing waits again after these alarms: the advance says so.
        await #expect(throws: ManualClock.Unsettled.self) { try await clock.advance(by: .seconds(5), settling: .milliseconds(200)) }
        #expect(fired.withLock { $0 } == ["1 s", "3 s"])
        #expect(clock.now - start == .seconds(5) + .milliseconds(999))
        #expect(clock.waitingTasks == 0)
    }

    @Test func anAlarmForATimePassedFiresAtOnce() async {
        let clock = ManualClock()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = clock.alarm(at: clock.now, .wait) { done.resume() }
        }
    }

    /// A loop that waits on the clock goes round once an advance, and the advance returns after it.
    @Test func anAdvanceReturnsOnceTheLoopItWokeWaitsAgain() async throws {
        let clock = ManualClock(wallNow: Date(timeIntervalSince1970: 1_800_000_000))
        let rounds = Mutex(0)
        let loop = Task {
            while !Task.isCancelled {
                await clock.sleep(until: clock.now + .seconds(1))
                rounds.withLock { $0 += 1 }
            }
        }
        // Polled: the loop's first alarm is set on a thread of its own.
        while clock.waitingTasks == 0 { try await Task.sleep(for: .milliseconds(1)) }
        for expected in 1...3 {
            try await clock.advance(by: .seconds(1))
            #expect(rounds.withLock { $0 } == expected)
        }
        #expect(clock.wallNow == Date(timeIntervalSince1970: 1_800_000_003))
        clock.stepWallClock(by: .seconds(-60))
        #expect(clock.wallNow == Date(timeIntervalSince1970: 1_799_999_943))
        loop.cancel()
        await loop.value
    }

    /// A loop woken by an advance that then runs something under a time limit (a poll's request)
    /// is busy until that ends: the advance returns after it, not while the limit's alarm is set.
    @Test func aLoopBusyUnderATimeLimitIsNotTakenForWaiting() async throws {
        let clock = ManualClock()
        let rounds = Mutex(0)
        let loop = Task {
            while !Task.isCancelled {
                await clock.sleep(until: clock.now + .seconds(1))
                // A real delay: the request in flight, which no virtual time moves.
                _ = await withTimeLimit(.seconds(10), on: clock) { try? await Task.sleep(for: .milliseconds(300)) }
                rounds.withLock { $0 += 1 }
            }
        }
        while clock.waitingTasks == 0 { try await Task.sleep(for: .milliseconds(1)) }
        try await clock.advance(by: .seconds(1))
        #expect(rounds.withLock { $0 } == 1)
        loop.cancel()
        await loop.value
    }

    /// A loop woken by an advance whose request is in flight while another task's wait stands in
    /// for its own (the count of waiting tasks is back where it was): the advance still returns
    /// only after the answer.
    @Test func aRequestInFlightKeepsTheClockUnsettledThoughTheWaitsAddUp() async throws {
        let clock = ManualClock()
        let answered = Atomic(false)
        let loop = Task {
            await clock.sleep(until: clock.now + .seconds(1))
            let standIn = clock.alarm(at: clock.now + .seconds(60), .wait) {}
            let request = clock.alarm(at: clock.now + .seconds(10), .request) {}
            // A real delay: the answer on its way, which no virtual time moves.
            try? await Task.sleep(for: .milliseconds(300))
            request.cancel()
            answered.store(true, ordering: .sequentiallyConsistent)
            standIn.cancel()
            await clock.sleep(until: clock.now + .seconds(60))
        }
        while clock.waitingTasks == 0 { try await Task.sleep(for: .milliseconds(1)) }
        try await clock.advance(by: .seconds(1))
        let wasAnswered = answered.load(ordering: .sequentiallyConsistent)
        #expect(wasAnswered)
        #expect(clock.requestsInFlight == 0)
        loop.cancel()
        await loop.value
    }
}
