/// JSON text to and from `JSONValue`, by hand over UTF-8 bytes. Foundation's JSONEncoder and
/// JSONDecoder went through Codable's generic containers for every value, a try per type for
/// each one read: a large share of the bridge's CPU time per command. The
/// output is what JSONEncoder wrote with `.sortedKeys` and `.withoutEscapingSlashes`, byte for
/// byte; the input is JSON as JSONDecoder took it: RFC 8259, and also a leading byte order mark
/// and a trailing comma in an array or object; of a key given twice, the first counts.
enum JSONText {
    /// Deeper than this is refused, as JSONDecoder does: a hostile payload cannot exhaust the stack.
    static let maximumDepth = 512

    /// The most memory the values of a text of `size` bytes may hold: two and a half times its
    /// size, so that with what malloc and freed buffers add the process pays about three times,
    /// and never less than 4 MiB. A small value in a small container costs many times its text (a
    /// `0,` is two bytes and a 24-byte slot), so a hostile body made of them would otherwise cost
    /// twelve to twenty times its size; real answers, far smaller than the body caps, stay under
    /// the floor whatever their shape.
    static func budget(forTextOf size: Int) -> Int {
        max(size * 5 / 2, 4 << 20)
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = Reader(bytes: bytes, budget: budget(forTextOf: bytes.count))
        reader.skipByteOrderMark()
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        guard reader.index == bytes.count else { return nil }
        return value
    }

    static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        // JSON has no NaN or infinity: `null`, as JavaScript's JSON.stringify writes them.
        case .number(let number) where !number.isFinite: out.append(contentsOf: "null".utf8)
        case .number(let number): out.append(contentsOf: numberText(number).utf8)
        case .string(let text): write(text, to: &out)
        case .array(let list):
            out.append(UInt8(ascii: "["))
            for (position, element) in list.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (position, index) in keyOrder(members).enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(members.keys[index], to: &out)
                out.append(UInt8(ascii: ":"))
                write(members.values[index], to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers without a fraction (`10`, not `10.0`); others as Swift's shortest form.
    static func numberText(_ number: Double) -> String {
        if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The members' positions in the byte order of their UTF-8 keys, as JSONEncoder's
    /// `.sortedKeys`: positions, not members, so that no value is copied and released to sort an
    /// object. Each key's first eight bytes, read once into an integer, decide almost every
    /// comparison, where comparing keys byte by byte made the sorting show in every command's cost.
    private static func keyOrder(_ members: [String: JSONValue]) -> [Dictionary<String, JSONValue>.Index] {
        let keys = members.keys
        var entries = keys.indices.map { (prefix: prefix(keys[$0]), index: $0) }
        entries.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : precedes(keys[$0.index], keys[$1.index]) }
        return entries.map(\.index)
    }

    /// The first eight UTF-8 bytes as a big-endian integer, zeros after a shorter key: integers
    /// that order as the keys' bytes do, but for keys alike in their first eight.
    private static func prefix(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bytes in
            (0..<8).reduce(0) { value, position in value << 8 | UInt64(position < bytes.count ? bytes[position] : 0) }
        }
    }

    /// Whether `first`'s UTF-8 bytes sort before `second`'s.
    private static func precedes(_ first: String, _ second: String) -> Bool {
        var first = first, second = second
        return first.withUTF8 { first in
            second.withUTF8 { second in
                for (a, b) in zip(first, second) where a != b { return a < b }
                return first.count < second.count
            }
        }
    }

    /// The runs of bytes that need no escape are copied whole: most strings are one such run.
    private static func write(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var unwritten = 0
            for (position, byte) in bytes.enumerated() where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[unwritten..<position]))
                writeEscaped(byte, to: &out)
                unwritten = position + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[unwritten...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func writeEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
        case 0x08: out.append(contentsOf: #"\b"#.utf8)
        case 0x0C: out.append(contentsOf: #"\f"#.utf8)
        case 0x0A: out.append(contentsOf: #"\n"#.utf8)
        case 0x0D: out.append(contentsOf: #"\r"#.utf8)
        case 0x09: out.append(contentsOf: #"\t"#.utf8)
        default:
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xF)])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
