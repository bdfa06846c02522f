/// The SHA-256 of a certificate's DER bytes, as browsers and `openssl x509 -fingerprint -sha256`
/// show it: uppercase hex pairs joined by `:`.
public struct CertificateFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    /// The fingerprint of a DER-encoded certificate.
    public init(der: some Collection<UInt8>) {
        bytes = SHA256.hash(der)
    }

    /// Parses what a user pastes: 64 hex digits, with or without `:` (or spaces) between the
    /// pairs, in any case, with surrounding whitespace.
    public init(parsing text: String) throws(TrustSettingError) {
        let digits = text.filter { !($0 == ":" || $0.isWhitespace) }
        var parsed: [UInt8] = []
        var characters = digits.makeIterator()
        while let high = characters.next() {
            guard let low = characters.next(), let highValue = high.hexDigitValue, let lowValue = low.hexDigitValue,
                high.isASCII, low.isASCII
            else {
                throw Self.malformed(text, "it is not made of hex digit pairs")
            }
            parsed.append(UInt8(highValue << 4 | lowValue))
        }
        guard parsed.count == 32 else {
            throw Self.malformed(text, "a SHA-256 fingerprint is 32 bytes (64 hex digits), this has \(parsed.count)")
        }
        bytes = parsed
    }

    public var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    private static func malformed(_ text: String, _ reason: String) -> TrustSettingError {
        TrustSettingError("not a SHA-256 certificate fingerprint: '\(text)': \(reason)")
    }
}
