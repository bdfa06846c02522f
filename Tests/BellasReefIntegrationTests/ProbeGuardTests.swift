@testable import BellasReefIntegration
import Foundation
import Logging
import Testing

/// The alarm a reading makes: limits with hysteresis, a stale reading, a failed one.
@Suite struct ProbeGuardTests {
    let limits = ProbeGuard(low: 24, high: 27, hysteresis: 0.5, staleAfter: .seconds(60))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func state(_ value: Double?, age: TimeInterval = 1, failed: Bool = false, after previous: ProbeGuard.State = .ok) -> ProbeGuard.State {
        limits.state(value: value, readAt: now.addingTimeInterval(-age), failed: failed, now: now, previous: previous)
    }

    @Test func limitsWithHysteresis() {
        #expect(state(25.5) == .ok)
        #expect(state(27.1) == .high)
        // Back under the limit but not by the hysteresis: still high; then ok.
        #expect(state(26.8, after: .high) == .high)
        #expect(state(26.4, after: .high) == .ok)
        #expect(state(26.8, after: .ok) == .ok)
        #expect(state(23.9) == .low)
        #expect(state(24.3, after: .low) == .low)
        #expect(state(24.6, after: .low) == .ok)
    }

    @Test func anOldOrFailedReadingIsNeverTakenAsFresh() {
        #expect(state(25.5, age: 61) == .stale)
        #expect(state(30, age: 61) == .stale, "a stale reading raises no temperature alarm: it is not known")
        #expect(state(nil, age: 10, failed: true) == .error)
        #expect(state(nil, age: 61, failed: true) == .stale)
        #expect(limits.state(value: nil, readAt: nil, failed: false, now: now, previous: .ok) == .stale)
        #expect(limits.state(value: nil, readAt: nil, failed: true, now: now, previous: .ok) == .error)
    }

    @Test func oneSidedLimits() {
        let heaterWatch = ProbeGuard(low: nil, high: 28, hysteresis: 0.2, staleAfter: .seconds(60))
        #expect(heaterWatch.state(value: 10, readAt: now, failed: false, now: now, previous: .ok) == .ok)
        #expect(heaterWatch.state(value: 28.5, readAt: now, failed: false, now: now, previous: .ok) == .high)
    }

    /// A start is no alarm: a probe not read yet is judged only once `stale_after` has passed.
    @Test func aProbeNotReadYetIsStaleOnlyAfterItsTime() {
        let probe = ReefGuardConfiguration.Probe(
            probe: "Display Tank", key: "display-tank", limits: ProbeGuard(low: 24, high: 27, hysteresis: 0.3, staleAfter: .seconds(60)))
        let start = Date()
        let guardian = ReefGuard(configuration: ReefGuardConfiguration(probes: [probe]), logger: Logger(label: "test"), startedAt: start)
        #expect(guardian.judge(ReefSnapshot(), now: start).isEmpty)
        #expect(guardian.messages.isEmpty)
        let later = guardian.judge(ReefSnapshot(), now: start.addingTimeInterval(61))
        #expect(later.map(\.alarm.state) == [.stale])
    }
}
