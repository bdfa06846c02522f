import Testing
import UpstreamHTTP

@Suite struct RetryAfterTests {
    @Test func deltaSeconds() {
        #expect(RetryAfter.parse("30") == .seconds(30))
        #expect(RetryAfter.parse(" 1.5 ") == .milliseconds(1500))
        #expect(RetryAfter.parse("0") == .zero)
    }

    @Test func ignoresDatesNegativesAndNonsense() {
        #expect(RetryAfter.parse(nil) == nil)
        #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(RetryAfter.parse("-5") == nil)
        #expect(RetryAfter.parse("inf") == nil)
    }

    @Test func capsAbsurdValuesAtADay() {
        #expect(RetryAfter.parse("1e12") == .seconds(86_400))
    }
}
