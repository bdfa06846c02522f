import BridgeRuntime
import Testing

/// `Wakeup.wait(atMost:)` ends at its limit, on a signal (also one given before it began) and
/// on cancellation; a wait that never ends fails the suite's time limit.
@Suite(.timeLimit(.minutes(1))) struct WakeupTests {
    @Test func theLimitEndsTheWait() async {
        let wakeup = Wakeup()
        await wakeup.wait(atMost: .milliseconds(20))
        await wakeup.wait(atMost: .zero)
    }

    @Test func aSignalGivenBeforeTheWaitEndsItAtOnce() async {
        let wakeup = Wakeup()
        wakeup.signal()
        await wakeup.wait(atMost: .seconds(3600))
    }

    @Test func aSignalWakesTheWaiter() async {
        let wakeup = Wakeup()
        await withDiscardingTaskGroup { group in
            group.addTask { await wakeup.wait(atMost: .seconds(3600)) }
            wakeup.signal()
        }
    }

    @Test func cancellationEndsTheWait() async {
        let wakeup = Wakeup()
        await withDiscardingTaskGroup { group in
            group.addTask { await wakeup.wait(atMost: .seconds(3600)) }
            group.cancelAll()
        }
        // The cancelled wait leaves nothing behind that would end the next one early.
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await wakeup.wait(atMost: .seconds(3600))
                return Task.isCancelled
            }
            try? await Task.sleep(for: .milliseconds(100))
            group.cancelAll()
            #expect(await group.next() == true)
        }
    }
}
