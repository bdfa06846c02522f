import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing

/// `Date.iso8601` writes what `formatted(.iso8601)` writes, which the payloads carried before.
@Suite struct DateISO8601Tests {
    @Test(arguments: [
        0, 0.999, 59, 951_782_400 /* 2000-02-29 */, 951_868_799.5, 1_709_251_199 /* 2024-02-29T23:59:59 */,
        1_796_083_200 /* 2026-12-01 */, 4_107_542_400 /* 2100-03-01 */, 253_402_300_799.9 /* 9999-12-31T23:59:59 */,
        -1, -86_400.5, 253_402_300_800, 1e13,
    ])
    func asTheFormatStyleWritesIt(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(date.iso8601 == date.formatted(.iso8601))
    }

    @Test func acrossTwoCenturiesAtRandom() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 0..<7_258_118_400, using: &generator))
            #expect(date.iso8601 == date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
        }
    }
}
