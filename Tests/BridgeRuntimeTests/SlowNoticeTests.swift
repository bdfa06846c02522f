import Synchronization
import Testing
import BridgeRuntime

@Suite struct SlowNoticeTests {
    @Test func aSlowOperationIsNoticedWhileItRunsAndStillEnds() async {
        let noticed = Notices()
        let sawTheNotice = await withSlowNotice(after: .milliseconds(20), { noticed.count.add(1, ordering: .relaxed) }) { () -> Bool in
            // Waits for the notice, for two seconds at most.
            for _ in 0..<400 where noticed.total == 0 { try? await Task.sleep(for: .milliseconds(5)) }
            return noticed.total == 1
        }
        #expect(sawTheNotice)
        #expect(noticed.total == 1)
    }

    @Test func aQuickOperationIsNeverNoticedAfterItEnds() async throws {
        let noticed = Notices()
        let result = await withSlowNotice(after: .milliseconds(20), { noticed.count.add(1, ordering: .relaxed) }) { 7 }
        // Well past the delay: a timer left behind would have called the notice by now.
        try await Task.sleep(for: .milliseconds(200))
        #expect(result == 7)
        #expect(noticed.total == 0)
    }
}

private final class Notices: Sendable {
    let count = Atomic(0)
    var total: Int { count.load(ordering: .relaxed) }
}
