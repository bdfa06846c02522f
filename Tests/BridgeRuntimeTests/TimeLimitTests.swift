import Synchronization
import Testing
import BridgeRuntime

@Suite struct TimeLimitTests {
    @Test func anOperationThatBeatsTheLimitGivesItsResult() async {
        let result = await withTimeLimit(.seconds(60)) { 42 }
        #expect(result == 42)
    }

    @Test func theLimitCancelsTheOperationAndGivesNil() async {
        let sawCancellation = Flag()
        let started = ContinuousClock.now
        let result = await withTimeLimit(.milliseconds(50)) { () -> Int in
            try? await Task.sleep(for: .seconds(30))
            sawCancellation.value.store(Task.isCancelled, ordering: .relaxed)
            return 1
        }
        #expect(result == nil)
        #expect(sawCancellation.isSet)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aTaskCancelledWhileTheOperationRunsGetsNil() async {
        await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                await withTimeLimit(.seconds(60)) { () -> Int in
                    try? await Task.sleep(for: .seconds(30))
                    return 1
                }
            }
            group.cancelAll()
            #expect(await group.next() == .some(nil))
        }
    }
}

private final class Flag: Sendable {
    let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
}
