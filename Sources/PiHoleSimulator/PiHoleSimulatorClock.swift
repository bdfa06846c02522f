import NIOConcurrencyHelpers
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time source of a ``PiHoleSimulator``: session expiry, login rate limiting and the
/// blocking countdown all read it.
public struct PiHoleSimulatorClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// Wall-clock time.
    public static var system: PiHoleSimulatorClock {
        PiHoleSimulatorClock(now: { Date() })
    }

    /// Time that moves only when `clock.advance(by:)` is called.
    public static func manual(_ clock: PiHoleSimulatorManualClock) -> PiHoleSimulatorClock {
        PiHoleSimulatorClock(now: { clock.now })
    }
}

/// A settable clock for tests.
public final class PiHoleSimulatorManualClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = NIOLockedValueBox(start)
    }

    public var now: Date { current.withLockedValue { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 += seconds }
    }

    public func advance(by duration: Duration) {
        let (s, atto) = duration.components
        advance(by: Double(s) + Double(atto) / 1e18)
    }
}
