/// The commands the page's controls may send, below the base topic: pause and resume (all
/// Pi-holes or one), group, rule, outlet and scene switches, and a guest voucher for the guest
/// card. Anything else is refused, so that the page is no way around the broker's ACL to the admin
/// actions, the domain lists or revoking a voucher.
enum PageControls {
    static func allows(_ topic: String) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.allSatisfy(isPlainLevel) else { return false }
        switch levels.count {
        case 2: return levels[0] == "pihole" && (levels[1] == "pause" || levels[1] == "resume")
        case 3:
            return (levels[0] == "pihole" && (levels[2] == "pause" || levels[2] == "resume"))
                || (levels[0] == "scene" && levels[2] == "set")
                || (levels[0] == "unifi" && levels[1] == "voucher" && levels[2] == "create")
        case 4:
            return (levels[0] == "pihole" && levels[1] == "group" && levels[3] == "set")
                || (levels[0] == "unifi" && levels[1] == "rule" && levels[3] == "set")
                || (levels[0] == "reef" && levels[1] == "outlet" && levels[3] == "set")
        case 5:
            return (levels[0] == "pihole" && levels[2] == "group" && levels[4] == "set")
                || (levels[0] == "unifi" && levels[1] == "controller" && levels[3] == "voucher" && levels[4] == "create")
        default: return false
        }
    }

    /// A topic level with no wildcard and nothing odd, and not empty.
    private static func isPlainLevel(_ level: Substring) -> Bool {
        !level.isEmpty && level.utf8.count <= 128 && level.utf8.allSatisfy(isPlain)
    }

    /// An ASCII letter or digit, `-`, `_` or `.`.
    static func isPlain(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
