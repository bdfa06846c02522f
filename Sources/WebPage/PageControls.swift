import BridgeCore

/// What the page's controls need of the bridge: the command path every client takes, and which
/// commands are everyday ones (`EverydayCommands`: pauses, switches, a guest voucher). Anything
/// else is refused, so that the page is no way around the broker's ACL to the admin actions, the
/// domain lists or revoking a voucher.
public protocol PageCommandPath: Sendable {
    func send(topic: String, payload: [UInt8]) async -> CommandResponse
    func isEverydayCommand(_ topic: String) -> Bool
}

extension Bridge: PageCommandPath {}

enum PageControls {
    /// Levels with no wildcard and nothing odd, none of them empty: a filter's `+` then stands
    /// for one plain level, and a command topic is never more than it names.
    static func isPlainTopic(_ topic: String) -> Bool {
        topic.split(separator: "/", omittingEmptySubsequences: false).allSatisfy(isPlainLevel)
    }

    private static func isPlainLevel(_ level: Substring) -> Bool {
        !level.isEmpty && level.utf8.count <= 128 && level.utf8.allSatisfy(isPlain) && level != "." && level != ".."
    }

    /// An ASCII letter or digit, `-`, `_` or `.`.
    static func isPlain(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
