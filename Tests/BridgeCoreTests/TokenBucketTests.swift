@testable import BridgeCore
import Testing

@Suite struct TokenBucketTests {
    @Test func aBurstThenTheRate() {
        let start = ContinuousClock.now
        var bucket = TokenBucket(rate: 10, burst: 20, now: start)
        #expect((0..<25).filter { _ in bucket.take(now: start) }.count == 20)
        let afterPauses = [50, 110, 150].map { bucket.take(now: start + .milliseconds($0)) }
        #expect(afterPauses == [false, true, false], "one token a tenth of a second")
        // A long quiet time refills to the burst, no more.
        let later = start + .seconds(60)
        #expect((0..<25).filter { _ in bucket.take(now: later) }.count == 20)
    }
}
