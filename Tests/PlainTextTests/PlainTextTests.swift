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
    }

    @Test func encodesAllButWhatItKeeps() {
        #expect("a b/c~d".percentEncoded(keeping: \.isUnreservedInURL) == "a%20b%2Fc~d")
        #expect("é".percentEncoded(keeping: \.isUnreservedInURL) == "%C3%A9")
        #expect("x'y".percentEncoded(keeping: { _ in true }) == "x'y")
    }

    @Test func fixedPointRoundsHalfAwayFromZero() {
        #expect(1.25.fixedPoint(digits: 1) == "1.3")
        #expect(0.04.fixedPoint(digits: 1) == "0.0")
        #expect((-0.5).fixedPoint(digits: 1) == "-0.5")
        #expect(812.6.fixedPoint(digits: 0) == "813")
        #expect(2.05.fixedPoint(digits: 2) == "2.05")
    }
}
