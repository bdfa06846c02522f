/// What FTL takes as a new client's name in a command: an IPv4 or IPv6 address, a MAC address
/// or a host name. (CIDR ranges and interfaces are configured on the Pi-hole itself: a topic level
/// cannot hold a `/`.)
enum ClientAddress {
    static func isValid(_ text: String) -> Bool {
        isIPv4(text) || isIPv6(text) || isMAC(text) || isHostName(text)
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part)! <= 255
        }
    }

    static func isIPv6(_ text: String) -> Bool {
        let groups = text.split(separator: ":", omittingEmptySubsequences: false)
        guard text.contains(":"), groups.count >= 3, groups.count <= 8, text.split(separator: "::", omittingEmptySubsequences: false).count <= 2 else { return false }
        return groups.allSatisfy { $0.count <= 4 && $0.allSatisfy(\.isHexDigit) }
    }

    static func isMAC(_ text: String) -> Bool {
        let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
        return pairs.count == 6 && pairs.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }

    /// RFC 1123: dot-separated labels of letters, digits and inner hyphens, 253 characters at most.
    static func isHostName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253, !isIPv4Like(text) else { return false }
        return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// All digits and dots: a malformed IPv4 address, not a host name.
    private static func isIPv4Like(_ text: String) -> Bool {
        text.allSatisfy { $0.isASCIIDigit || $0 == "." }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
