/// A recursive-descent reader of one JSON text; every method returns `nil` on what is not JSON,
/// or on a text whose values would hold more memory than `budget` (see `JSONText.budget`).
struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    let budget: Int
    /// The bytes the values read so far hold, as Swift lays them out (`MemoryCost`).
    private var cost = 0

    init(bytes: UnsafeBufferPointer<UInt8>, budget: Int) {
        self.bytes = bytes
        self.budget = budget
    }

    /// Counts `bytes` more; false once the budget is spent.
    private mutating func spend(_ bytes: Int) -> Bool {
        cost += bytes
        return cost <= budget
    }

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
            // A full table doubles as the member goes in: that is paid for first, the old table
            // too (both are live while it grows), then counted at the size it came to.
            let (old, full) = (members.capacity, members.count == members.capacity)
            let grown = full ? max(2 * old, 1) : old
            guard !full || spend(MemoryCost.object(grown)) else { return nil }
            // Of a key given twice the first counts; one lookup when it is not.
            if let first = members.updateValue(member, forKey: key) { members[key] = first }
            guard !full || spend(MemoryCost.object(members.capacity) - MemoryCost.object(grown) - MemoryCost.object(old)) else { return nil }
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
            // A full buffer doubles as the element goes in: paid for as a table is, above.
            let (old, full) = (elements.capacity, elements.count == elements.capacity)
            let grown = full ? max(2 * old, 1) : old
            guard !full || spend(MemoryCost.array(grown)) else { return nil }
            elements.append(element)
            guard !full || spend(MemoryCost.array(elements.capacity) - MemoryCost.array(grown) - MemoryCost.array(old)) else { return nil }
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
                guard spend(MemoryCost.string(text.count)) else { return nil }
                // `String(validating:as:)` is generic and not specialised here: type-metadata
                // lookups for every string. ASCII needs no validating.
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
                guard spend(MemoryCost.string(text.count)) else { return nil }
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

/// What a parsed value holds on the heap, in bytes, as the standard library lays it out and
/// malloc rounds it: an array's buffer is a header and a slot per element; a dictionary's a
/// header and, per member it has room for, its key and value in a table kept at most three
/// quarters full; a string of more than 15 UTF-8 bytes a header and its bytes (shorter ones live
/// in the slot).
enum MemoryCost {
    static func array(_ capacity: Int) -> Int {
        capacity == 0 ? 0 : allocation(32 + capacity * MemoryLayout<JSONValue>.stride)
    }

    static func object(_ capacity: Int) -> Int {
        capacity == 0 ? 0 : allocation(80 + capacity * (MemoryLayout<String>.stride + MemoryLayout<JSONValue>.stride) * 4 / 3)
    }

    static func string(_ utf8Count: Int) -> Int {
        utf8Count <= 15 ? 0 : allocation(33 + utf8Count)
    }

    /// glibc's chunk for a request: a word of its own, a multiple of 16, 32 at least.
    private static func allocation(_ bytes: Int) -> Int {
        max(32, (bytes + 8 + 15) & ~15)
    }
}
