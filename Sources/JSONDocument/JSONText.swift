/// JSON text to and from `JSONValue`, by hand over UTF-8 bytes. Foundation's JSONEncoder and
/// JSONDecoder went through Codable's generic containers for every value, a try per type for
/// each one read: about a tenth of the bridge's CPU time per command (issue 10's profile). The
/// output is what JSONEncoder wrote with `.sortedKeys` and `.withoutEscapingSlashes`, byte for
/// byte; the input is JSON as JSONDecoder took it: RFC 8259, and also a leading byte order mark
/// and a trailing comma in an array or object; of a key given twice, the first counts.
enum JSONText {
    /// Deeper than this is refused, as JSONDecoder does: a hostile payload cannot exhaust the stack.
    static let maximumDepth = 512

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = Reader(bytes: bytes)
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
    /// comparison: comparing keys byte by byte, the sorting took 2.6 % of the bridge's instructions.
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

/// A recursive-descent reader of one JSON text; every method returns `nil` on what is not JSON.
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard depth < JSONText.maximumDepth else { return nil }
        skipWhitespace()
        switch next {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return word("true", .bool(true))
        case UInt8(ascii: "f"): return word("false", .bool(false))
        case UInt8(ascii: "n"): return word("null", .null)
        case .some: return number()
        case nil: return nil
        }
    }

    private mutating func word(_ text: String, _ value: JSONValue) -> JSONValue? {
        for expected in text.utf8 {
            guard next == expected else { return nil }
            index += 1
        }
        return value
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if next == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            if next == UInt8(ascii: "}"), !members.isEmpty {  // after a trailing comma
                index += 1
                return .object(members)
            }
            guard next == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard next == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value(depth: depth + 1) else { return nil }
            // Of a key given twice the first counts; one lookup when it is not.
            if let first = members.updateValue(member, forKey: key) { members[key] = first }
            skipWhitespace()
            switch next {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if next == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if next == UInt8(ascii: "]"), !elements.isEmpty {  // after a trailing comma
                index += 1
                return .array(elements)
            }
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
            skipWhitespace()
            switch next {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: return nil
            }
        }
    }

    /// From the opening quote; escapes decoded, unescaped control characters and invalid UTF-8
    /// refused. A string without escapes is made from the text at once.
    private mutating func string() -> String? {
        index += 1
        let start = index
        var ascii = true
        while let byte = next {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let text = UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])
                // `String(validating:as:)` is generic and not specialised here: a thousand
                // instructions of type-metadata lookups a string. ASCII needs no validating.
                return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                return escapedString(from: start)
            case 0..<0x20:
                return nil
            default:
                ascii = ascii && byte < 0x80
                index += 1
            }
        }
        return nil
    }

    /// The rest of a string that has an escape at `index`, its start at `start`.
    private mutating func escapedString(from start: Int) -> String? {
        var text = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while let byte = next {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = next else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escaped)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    text.append(contentsOf: String(scalar).utf8)
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// After `\u`: four hex digits, and a second `\uXXXX` for a surrogate pair; a lone surrogate is refused.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexQuad() else { return nil }
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
        guard next == UInt8(ascii: "\\") else { return nil }
        index += 1
        guard next == UInt8(ascii: "u") else { return nil }
        index += 1
        guard let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    private mutating func hexQuad() -> UInt32? {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next, let digit = Self.hexValue(byte) else { return nil }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and finite as a Double.
    private mutating func number() -> JSONValue? {
        let start = index
        if next == UInt8(ascii: "-") { index += 1 }
        if next == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() else { return nil }
        }
        if next == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return nil }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            index += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return nil }
        }
        if let whole = Self.wholeNumber(UnsafeBufferPointer(rebasing: bytes[start..<index])) { return .number(whole) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { return nil }
        return .number(number)
    }

    /// `-?[0-9]{1,15}` without making a string: exact as a Double, as `Double(text)` reads it
    /// (`-0` included). Nil for anything else.
    private static func wholeNumber(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let negative = text.first == UInt8(ascii: "-")
        let digits = UnsafeBufferPointer(rebasing: text[(negative ? 1 : 0)...])
        guard (1...15).contains(digits.count) else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return negative ? -Double(value) : Double(value)
    }

    /// One digit or more.
    private mutating func digits() -> Bool {
        let start = index
        while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index > start
    }
}
