import BridgeCore
import Foundation

/// A rule switch, read from its payload before any API call: `ON`/`OFF`, `true`/`false`, or
/// `{"enabled":false}`, timed with `"for": SECONDS` or `"until": "ISO-8601"`.
struct RuleCommand: Equatable, Sendable {
    let enabled: Bool
    /// After this long, the state the rule had before is restored; `nil`: the change stays.
    let duration: Duration?

    static let usage = #"rule set takes ON, OFF or {"enabled":true|false} (with "for":SECONDS or "until":"ISO-8601")"#
    private static let knownKeys: Set<String> = ["enabled", "for", "until", "transaction"]

    static func parse(_ payload: CommandRequest.Payload, now: Date = Date()) throws(CommandError) -> RuleCommand {
        switch payload {
        case .empty:
            throw CommandError(usage)
        case .text(let text):
            guard let enabled = SwitchWord.parse(text) else { throw CommandError("\(usage); got '\(text.prefix(40))'") }
            return RuleCommand(enabled: enabled, duration: nil)
        case .json(let json):
            guard case .object(let object) = json else { throw CommandError(usage) }
            if let unknown = object.keys.sorted().first(where: { !knownKeys.contains($0) }) {
                throw CommandError("unknown key '\(unknown.prefix(40))': \(usage)")
            }
            guard case .bool(let enabled)? = object["enabled"] else { throw CommandError("\"enabled\" must be true or false: \(usage)") }
            return RuleCommand(enabled: enabled, duration: try TimedCommand.duration(in: object, now: now))
        }
    }
}
