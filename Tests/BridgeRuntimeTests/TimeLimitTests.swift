import BridgeRuntime
import Synchronization
import Testing

@Suite struct TimeLimitTests {
    @Test func anOperationThatBeatsTheLimitGivesItsResult() async {
        guard case .finished(let result) = await withTimeLimit(.seconds(60), { 42 }) else {
            Issue.record("the operation did not finish")
            return
        }
        #expect(result == 42)
    }

    @Test func theLimitCancelsTheOperationButNotTheCaller() async {
        let sawCancellation = Flag()
        let started = ContinuousClock.now
        let outcome = await withTimeLimit(.milliseconds(50)) { () -> Int in
            try? await Task.sleep(for: .seconds(30))
            sawCancellation.value.store(Task.isCancelled, ordering: .relaxed)
            return 1
        }
        guard case .expired = outcome else {
            Issue.record("expected .expired, got \(outcome)")
            return
        }
        #expect(sawCancellation.isSet)
        #expect(!Task.isCancelled, "the limit cancels the operation's task, never the caller's")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aTaskCancelledWhileTheOperationRunsIsToldSo() async {
        await withTaskGroup(of: String.self) { group in
            group.addTask {
                let outcome = await withTimeLimit(.seconds(60)) { () -> Int in
                    try? await Task.sleep(for: .seconds(30))
                    return 1
                }
                return "\(outcome)"
            }
            group.cancelAll()
            #expect(await group.next() == "cancelled")
        }
    }
}

private final class Flag: Sendable {
    let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
}
