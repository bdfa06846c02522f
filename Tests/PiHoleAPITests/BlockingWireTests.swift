import JSONDocument
import Testing

@testable import PiHoleAPI

/// The blocking exchange, read and written by hand: what a real FTL, its docs and older builds send.
@Suite struct BlockingWireTests {
    private func status(_ text: String) -> PiHoleBlockingStatus? {
        JSONValue.parse(Array(text.utf8)).flatMap(PiHoleWire.blockingStatus)
    }

    @Test func aStringAnyCaseOrABoolean() {
        #expect(status(#"{"blocking":"disabled","timer":29.5,"took":0.001}"#) == .init(blocking: .disabled, timer: 29.5))
        #expect(status(#"{"blocking":"ENABLED","timer":null}"#) == .init(blocking: .enabled, timer: nil))
        #expect(status(#"{"blocking":"sleeping"}"#) == .init(blocking: .unknown, timer: nil))
        #expect(status(#"{"blocking":false,"timer":30}"#) == .init(blocking: .disabled, timer: 30))
        #expect(status(#"{"blocking":true,"timer":"soon"}"#) == .init(blocking: .enabled, timer: nil))
    }

    /// A timer of 1e300 s once reached the poll scheduler, which traps converting it to a duration.
    @Test func aTimerOutOfRangeIsNone() {
        #expect(status(#"{"blocking":"disabled","timer":1e300}"#) == .init(blocking: .disabled, timer: nil))
        #expect(status(#"{"blocking":"disabled","timer":-5}"#) == .init(blocking: .disabled, timer: nil))
        #expect(status(#"{"blocking":"disabled","timer":315360000}"#) == .init(blocking: .disabled, timer: 315_360_000))
    }

    @Test func noBlockingNoStatus() {
        #expect(status(#"{"timer":30}"#) == nil)
        #expect(status(#"{"blocking":1}"#) == nil)
        #expect(status(#"["disabled"]"#) == nil)
    }

    @Test func aPermanentChangeSendsAnExplicitNullTimer() {
        #expect(PiHoleWire.blockingRequest(false, timer: 30).encodedString() == #"{"blocking":false,"timer":30}"#)
        #expect(PiHoleWire.blockingRequest(true, timer: nil).encodedString() == #"{"blocking":true,"timer":null}"#)
    }
}
