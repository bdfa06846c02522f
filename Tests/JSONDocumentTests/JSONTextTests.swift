import JSONDocument
import Testing

/// JSON text by hand (`JSONText`) keeps what JSONEncoder and JSONDecoder did: the same bytes out
/// for the same value (payloads are compared byte for byte to skip unchanged state), the same
/// texts taken and refused.
@Suite struct JSONTextTests {
    private func text(_ value: JSONValue) -> String { value.encodedString() }
    private func parse(_ text: String) -> JSONValue? { JSONValue.parse(Array(text.utf8)) }

    @Test func keysSortedByTheirBytesNumbersWithoutNeedlessFractions() {
        #expect(text(["b": 1, "B": 2, "a10": 3, "a2": 4, "é": 5, "": 6]) == #"{"":6,"B":2,"a10":3,"a2":4,"b":1,"é":5}"#)
        // Keys alike in their first eight bytes, and keys that are the start of another.
        let alike: JSONValue = ["temperature_c": 1, "temperature_b": 2, "temperature": 3, "temperatu": 4, "a\u{0}": 5, "a": 6]
        #expect(text(alike) == #"{"a":6,"a\u0000":5,"temperatu":4,"temperature":3,"temperature_b":2,"temperature_c":1}"#)
        #expect(text([10, 24.5, 1e15, 1e20, 0.1, -0.0, 1e-5]) == "[10,24.5,1000000000000000,1e+20,0.1,0,1e-05]")
        #expect(text([true, false, nil, []]) == "[true,false,null,[]]")
    }

    /// JSON has no NaN or infinity: such a number is written `null`, so the document stays JSON.
    @Test func numbersJSONCannotHoldAreWrittenNull() {
        let value: JSONValue = ["ratio": .number(.nan), "peak": .number(.infinity), "low": .number(-.infinity), "ok": 1]
        #expect(value.encodedString() == #"{"low":null,"ok":1,"peak":null,"ratio":null}"#)
        #expect(JSONValue.parse(value.encoded()) != nil)
    }

    @Test func stringsEscapedAsJSONEncoderDidSlashesLeftAlone() {
        #expect(text("a/b\"c\\d\n\t\r\u{8}\u{c}\u{1}\u{1f}é😀") == #""a/b\"c\\d\n\t\r\b\f\u0001\u001fé😀""#)
    }

    @Test func readsWhatItWritesAndTheEscapesOfOthers() {
        let value: JSONValue = ["rule": ["enabled": true, "ports": [80, 443], "name": "downtime \"emma\""], "none": nil]
        #expect(parse(text(value)) == value)
        #expect(parse(#" {"a" : "\u00e9\ud83d\ude00\/" } "#) == ["a": "é😀/"])
        #expect(parse("-1.5e-3") == .number(-0.0015))
        #expect(parse("\u{FEFF}[1]") == [1])
    }

    @Test func lenientWhereJSONDecoderWas() {
        #expect(parse(#"{"a":1,"a":2}"#) == ["a": 1])
        #expect(parse("[1,]") == [1])
        #expect(parse(#"{"a":1,}"#) == ["a": 1])
    }

    @Test(arguments: [
        "", "[", "01", "1.", ".5", "+1", "[1 2]", "[1]x", "{\"a\"}", "[,]", "tru", "NaN", "1e400", "\"\\x\"", "\"a\tb\"",
        "\"\\ud800\"", "\"\\udc00\"",
    ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(parse(text) == nil)
    }

    @Test func refusesNestingBeyondTheLimit() {
        #expect(parse(String(repeating: "[", count: 511) + String(repeating: "]", count: 511)) != nil)
        #expect(parse(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)) == nil)
    }

    @Test func refusesInvalidUTF8() {
        #expect(JSONValue.parse([0x22, 0xFF, 0x22]) == nil)
    }
}
