@testable import BellasReefIntegration
import Foundation
import Testing

/// The phase a reading asks of an interlock: trip above the limit, release only back below it by
/// the hysteresis (the hold's timer keeps the minimum off time), never on a stale or failed reading.
@Suite struct OutletInterlockTests {
    let rule = OutletInterlock(above: 27, hysteresis: 0.5, minOff: .seconds(600), staleAfter: .seconds(60))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func phase(_ value: Double?, age: TimeInterval = 1, failed: Bool = false, in phase: OutletInterlock.Phase) -> OutletInterlock.Phase {
        rule.phase(value: value, readAt: now.addingTimeInterval(-age), failed: failed, now: now, in: phase)
    }

    @Test func aFreshReadingAboveTheLimitTrips() {
        #expect(phase(27.1, in: .armed) == .tripped)
        #expect(phase(27, in: .armed) == .armed, "at the limit is not above it")
        #expect(phase(20, in: .armed) == .armed)
    }

    @Test func aReleaseNeedsTheProbeBackDownByTheHysteresis() {
        #expect(phase(26.8, in: .tripped) == .tripped, "under the limit, but not by the hysteresis")
        #expect(phase(28, in: .tripped) == .tripped)
        #expect(phase(26.5, in: .tripped) == .armed)
    }

    @Test func aStaleOrFailedProbeNeitherTripsNorReleases() {
        #expect(phase(30, age: 61, in: .armed) == .armed)
        #expect(phase(20, age: 61, in: .tripped) == .tripped, "a stale probe is no proof the heater cooled")
        #expect(phase(nil, failed: true, in: .tripped) == .tripped)
        #expect(phase(20, failed: true, in: .tripped) == .tripped)
        #expect(phase(nil, failed: true, in: .armed) == .armed)
        #expect(rule.phase(value: nil, readAt: nil, failed: false, now: now, in: .tripped) == .tripped)
    }

    /// Overridden by a user: it never trips again until the probe is back down, then watches again.
    @Test func anOverriddenInterlockRearmsOnceTheProbeIsBackDown() {
        #expect(phase(29, in: .overridden) == .overridden)
        #expect(phase(26.8, in: .overridden) == .overridden)
        #expect(phase(26.5, in: .overridden) == .armed)
        #expect(phase(20, age: 61, in: .overridden) == .overridden)
    }
}
