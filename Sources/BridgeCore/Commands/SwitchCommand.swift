#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A switch command, read from its payload before any API call: `ON`/`OFF` (or another switch
/// word), or `{"enabled":true|false}`, timed with `"for": SECONDS` or `"until": "ISO-8601"` —
/// after which the state before comes back. UniFi rules and Pi-hole groups switch this way.
public struct SwitchCommand: Equatable, Sendable {
    public let enabled: Bool
    /// After this long, the state the thing had before is restored; `nil`: the change stays.
    public let duration: Duration?
    /// The boolean options the caller allows (`force`) that the JSON set to `true`.
    public let flags: Set<String>

    public init(enabled: Bool, duration: Duration? = nil, flags: Set<String> = []) {
        self.enabled = enabled
        self.duration = duration
        self.flags = flags
    }

    /// - Parameters:
    ///   - command: how the command is named in errors: `rule set`.
    ///   - flags: boolean JSON options this command also takes.
    public static func parse(
        _ payload: CommandRequest.Payload, command: String, flags allowedFlags: Set<String> = [], now: Date = Date()
    ) throws(CommandError) -> SwitchCommand {
        let usage = #"\#(command) takes ON, OFF or {"enabled":true|false} (with "for":SECONDS or "until":"ISO-8601")"#
        switch payload {
        case .empty:
            throw CommandError(usage)
        case .text(let text):
            guard let enabled = SwitchWord.parse(text) else { throw CommandError("\(usage); got '\(text.prefix(40))'") }
            return SwitchCommand(enabled: enabled)
        case .json(let json):
            guard case .object(let object) = json else { throw CommandError(usage) }
            let known = allowedFlags.union(["enabled", "for", "until", "transaction"])
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw CommandError("unknown key '\(unknown.prefix(40))': \(usage)")
            }
            guard case .bool(let enabled)? = object["enabled"] else { throw CommandError("\"enabled\" must be true or false: \(usage)") }
            var flags: Set<String> = []
            for flag in allowedFlags.sorted() {
                switch object[flag] {
                case nil, .bool(false)?: break
                case .bool(true)?: flags.insert(flag)
                case let other?: throw CommandError("\"\(flag)\" must be true or false, got \(other.encodedString().prefix(40))")
                }
            }
            return SwitchCommand(enabled: enabled, duration: try TimedCommand.duration(in: object, now: now), flags: flags)
        }
    }
}
