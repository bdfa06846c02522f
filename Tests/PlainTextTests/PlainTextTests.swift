import PlainText
import Testing

@Suite struct PlainTextTests {
    @Test func trimsWhiteSpaceAndLineBreaksOrWhatItIsTold() {
        #expect("  30 \n".trimmed() == "30")
        #expect(" \t\n ".trimmed() == "")
        #expect("secret \n\n".trimmed(dropping: \.isNewline) == "secret ")
        #expect("a b".trimmed() == "a b")
    }

    @Test func padsToAColumnWidth() {
        #expect("ab".padded(to: 4) == "ab  ")
        #expect("abcdef".padded(to: 4) == "abcdef")
        #expect("é".padded(to: 2) == "é ")
    }

    @Test func decodesPercentEscapesAsUTF8() {
        #expect("downtime%20emma".percentDecoded == "downtime emma")
        #expect("caf%C3%A9".percentDecoded == "café")
        #expect("plain".percentDecoded == "plain")
        #expect("bad%2".percentDecoded == nil)
        #expect("bad%zz".percentDecoded == nil)
        #expect("%FF".percentDecoded == nil)
        #expect("%".percentDecoded == nil)
        #expect("%2f%2F".percentDecoded == "//")
    }

    @Test func encodesAllButWhatItKeeps() {
        #expect("a b/c~d".percentEncoded(keeping: \.isUnreservedInURL) == "a%20b%2Fc~d")
        #expect("é".percentEncoded(keeping: \.isUnreservedInURL) == "%C3%A9")
        #expect("x'y".percentEncoded(keeping: { _ in true }) == "x'y")
        #expect("\u{1}\u{7F}".percentEncoded(keeping: { _ in false }) == "%01%7F")
    }

    @Test func aPathSegmentKeepsOnlyTheUnreservedCharacters() {
        #expect("example.com".percentEncodedPathSegment == "example.com")
        #expect("(^|\\.)ads\\.com$".percentEncodedPathSegment == "%28%5E%7C%5C.%29ads%5C.com%24")
        #expect("a/b?c&d=e f~_-".percentEncodedPathSegment == "a%2Fb%3Fc%26d%3De%20f~_-")
        #expect("ä".percentEncodedPathSegment == "%C3%A4")
    }

    /// As `UUID(uuidString:)?.uuidString.lowercased()` answers, which the ids were read with.
    @Test func readsAUUIDInEitherCaseAsItsLowercaseForm() {
        #expect("0B3C7E2A-41D8-4F7B-9C1E-AAF0D2E4B6C8".lowercasedUUID == "0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6c8")
        #expect("0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6c8".lowercasedUUID == "0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6c8")
        for notOne in [
            "", "0b3c7e2a41d84f7b9c1eaaf0d2e4b6c8", "0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6c", "0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6c8a",
            "0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6cg", "0b3c7e2a-41d84-f7b-9c1e-aaf0d2e4b6c8", "{0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6}",
            " 0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6c", "0b3c7e2a-41d8-4f7b-9c1e-aaf0d2e4b6c\u{E9}",
        ] {
            #expect(notOne.lowercasedUUID == nil, "\(notOne)")
        }
    }

    @Test func fixedPointRoundsHalfAwayFromZero() {
        #expect(1.25.fixedPoint(digits: 1) == "1.3")
        #expect(0.04.fixedPoint(digits: 1) == "0.0")
        #expect((-0.5).fixedPoint(digits: 1) == "-0.5")
        #expect(812.6.fixedPoint(digits: 0) == "813")
        #expect(2.05.fixedPoint(digits: 2) == "2.05")
    }

    /// Issue 28: an upstream number past `Int`'s range trapped.
    @Test func fixedPointOfAHugeNumberIsItsShortestForm() {
        #expect(1e300.fixedPoint(digits: 1) == "1e+300")
        #expect((-1e19).fixedPoint(digits: 0) == "-1e+19")
        #expect(1e15.fixedPoint(digits: 1) == "1000000000000000.0")
        #expect(123456789.5.fixedPoint(digits: 1) == "123456789.5")
        #expect(Double.infinity.fixedPoint(digits: 1) == "inf")
        #expect(1.5.fixedPoint(digits: 400) == "1.5")
    }
}
