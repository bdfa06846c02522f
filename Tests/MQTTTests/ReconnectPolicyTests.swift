import MQTT
import Testing

@Suite("MQTTReconnectPolicy (pure)")
struct ReconnectPolicyTests {
    let policy = MQTTReconnectPolicy()

    @Test("no failures means no delay")
    func zeroFailures() {
        #expect(policy.delay(afterFailures: 0, random: 0.5) == .zero)
        #expect(policy.delay(afterFailures: -3, random: 0.5) == .zero)
    }

    @Test("doubles from the initial delay up to the cap, without jitter at random 0")
    func table() {
        let expected: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)]
        let actual = (1...7).map { policy.delay(afterFailures: $0, random: 0) }
        #expect(actual == expected)
        #expect(policy.delay(afterFailures: 1_000, random: 0) == .seconds(30))
        #expect(policy.delay(afterFailures: Int.max, random: 0) == .seconds(30))
    }

    @Test("jitter only shortens, by at most the jitter fraction")
    func jitter() {
        #expect(policy.delay(afterFailures: 1, random: 0.5) == .milliseconds(900))
        #expect(policy.delay(afterFailures: 3, random: 0.999_999) > .milliseconds(3_199))
        #expect(policy.delay(afterFailures: 3, random: 0.999_999) <= .milliseconds(3_200) + .microseconds(10))
        #expect(policy.delay(afterFailures: 10, random: 1) == .seconds(24))
        for n in 1...10 {
            for r in stride(from: 0.0, to: 1.0, by: 0.1) {
                #expect(policy.delay(afterFailures: n, random: r) <= .seconds(30))
            }
        }
    }

    @Test("custom policy and out-of-range inputs are clamped")
    func custom() {
        let custom = MQTTReconnectPolicy(initialDelay: .milliseconds(100), maximumDelay: .milliseconds(250), jitter: 2)
        #expect(custom.delay(afterFailures: 1, random: 0) == .milliseconds(100))
        #expect(custom.delay(afterFailures: 2, random: 0) == .milliseconds(200))
        #expect(custom.delay(afterFailures: 3, random: 0) == .milliseconds(250))
        // jitter clamps to 1, random clamps to 0...1
        #expect(custom.delay(afterFailures: 3, random: 7) == .zero)
        #expect(custom.delay(afterFailures: 3, random: -1) == .milliseconds(250))
    }
}
