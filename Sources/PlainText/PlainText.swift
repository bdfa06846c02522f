/// What the code asked of Foundation's `NSString` API for text: trimming, percent-encoding and
/// fixed-point numbers. On Linux those live in the full Foundation, whose first use links
/// CoreFoundation and ICU's data into the binary (most of its size); `FoundationEssentials` has
/// none of them. A few lines each, here, once.
extension StringProtocol {
    /// Without the leading and trailing characters that `drop` says to drop (white space and
    /// line breaks unless told otherwise).
    public func trimmed(dropping drop: (Character) -> Bool = \.isWhitespace) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }

    /// Spaces after the text up to `width` characters, for columns; longer text stays whole.
    public func padded(to width: Int) -> String {
        String(self) + String(repeating: " ", count: Swift.max(0, width - count))
    }

}

// On `String` itself, not `StringProtocol`: a generic method of another module runs unspecialised,
// a witness-table call for every byte, and these run for every upstream request.
extension String {
    /// Every byte of the UTF-8 text that `keep` does not accept as `%XX` (upper-case hex), as
    /// `addingPercentEncoding(withAllowedCharacters:)` with an ASCII set.
    public func percentEncoded(keeping keep: (UInt8) -> Bool) -> String {
        // Bytes, made into a string once, rather than a `String` appended to scalar by scalar:
        // every UniFi request encodes its path segments.
        var encoded: [UInt8] = []
        encoded.reserveCapacity(utf8.count)
        for byte in utf8 {
            if keep(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(upperHexDigit(byte >> 4))
                encoded.append(upperHexDigit(byte & 0x0F))
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Everything but RFC 3986's unreserved characters escaped: one URL path segment (or query
    /// value) whatever the text holds, a regex or a unicode domain included.
    public var percentEncodedPathSegment: String {
        percentEncoded(keeping: \.isUnreservedInURL)
    }

    /// `%XX` escapes decoded as UTF-8; `nil` for a malformed escape or bytes that are not UTF-8,
    /// as `removingPercentEncoding` answers. The simulators decode every path segment of every
    /// request with it.
    public var percentDecoded: String? {
        guard utf8.contains(UInt8(ascii: "%")) else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var utf8 = self.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil  // decoding replaced what was not UTF-8
    }

    /// The text as a lowercase UUID if it is one (`8-4-4-4-12` hex digits, either case), as
    /// `UUID(uuidString:)?.uuidString.lowercased()` answers, without the `sscanf` that reads it
    /// there, for every outlet command.
    public var lowercasedUUID: String? {
        guard utf8.count == 36 else { return nil }
        var lowered: [UInt8] = []
        lowered.reserveCapacity(36)
        for (offset, byte) in utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                lowered.append(byte)
            } else {
                guard hexValue(byte) != nil else { return nil }
                lowered.append(byte | 0x20)  // A–F to a–f; digits already have the bit
            }
        }
        return String(decoding: lowered, as: UTF8.self)
    }
}

extension UInt8 {
    /// RFC 3986's unreserved characters: ALPHA, DIGIT, `-`, `.`, `_`, `~`.
    public var isUnreservedInURL: Bool {
        isASCIIAlphanumeric || self == UInt8(ascii: "-") || self == UInt8(ascii: ".") || self == UInt8(ascii: "_") || self == UInt8(ascii: "~")
    }

    public var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

private func upperHexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

extension Double {
    /// Fixed-point text with `digits` decimals, rounded half away from zero: `String(format:
    /// "%.1f")` without Foundation. A number too large for that (an upstream may send any) is
    /// written in Swift's shortest form, `1e+300`: past 2^53 a Double has no fraction digits to
    /// show, and the whole part would not fit an `Int`.
    public func fixedPoint(digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        guard isFinite, abs(self) * scale < 0x1p53 else { return "\(self)" }
        let scaled = (abs(self) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = self < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let fractionText = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}
