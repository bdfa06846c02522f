import BridgeCore

/// A Bella's Reef command, read from its topic and payload before any API call is made.
enum ReefCommand: Equatable, Sendable {
    /// `outlet/<key or id>/set`.
    case setOutlet(target: String, OutletSwitch)
    case refresh
    /// `feed/start`: `nil` for the configured default.
    case startFeed(Duration?)
    case cancelFeed

    static func parse(_ request: CommandRequest) throws(CommandError) -> ReefCommand {
        switch request.path {
        case ["refresh"]:
            return .refresh
        case ["feed", "start"]:
            return .startFeed(try feedDuration(request.payload))
        case ["feed", "cancel"]:
            guard case .empty = request.payload else { throw CommandError("feed/cancel takes no payload") }
            return .cancelFeed
        case let path where path.count == 3 && path[0] == "outlet" && path[2] == "set":
            return .setOutlet(target: path[1], try OutletSwitch.parse(request.payload))
        default:
            throw CommandError("unknown Bella's Reef command '\(request.path.joined(separator: "/"))'", code: .unknownTarget)
        }
    }

    static let feedUsage = #"feed/start takes nothing (reef.feed.default_minutes), a number of seconds, or {"for":SECONDS} or {"until":TIME}"#

    /// `nil`: the configured default.
    private static func feedDuration(_ payload: CommandRequest.Payload) throws(CommandError) -> Duration? {
        switch payload {
        case .empty:
            return nil
        case .text(let text):
            guard let seconds = Double(text) else { throw CommandError("\(feedUsage); got '\(text.prefix(40))'") }
            return try TimedCommand.duration(in: ["for": .number(seconds)])
        case .json(.object(let object)):
            if let unknown = object.keys.sorted().first(where: { !["for", "until", "transaction"].contains($0) }) {
                throw CommandError("unknown key '\(unknown.prefix(40))': \(feedUsage)")
            }
            return try TimedCommand.duration(in: object)
        case .json:
            throw CommandError(feedUsage)
        }
    }
}

/// What to do to an outlet, and for how long (then the previous state comes back).
struct OutletSwitch: Equatable, Sendable {
    enum Action: String, Sendable {
        case on, off, toggle
    }

    let action: Action
    /// `nil`: for good.
    let duration: Duration?

    static let usage = #"takes ON, OFF or TOGGLE, or {"state":"on"|"off"|"toggle"} with "for": SECONDS or "until": TIME"#

    /// `ON`/`OFF`/`TOGGLE` in any case (and the other switch words), or a JSON object with
    /// `state` and optionally `for` or `until`.
    static func parse(_ payload: CommandRequest.Payload) throws(CommandError) -> OutletSwitch {
        switch payload {
        case .empty:
            throw CommandError("outlet/<key>/set \(usage); got nothing")
        case .text(let text):
            return OutletSwitch(action: try action(text), duration: nil)
        case .json(.object(let object)):
            guard case .string(let state)? = object["state"] else {
                throw CommandError(#"the JSON needs "state": "on", "off" or "toggle", got "# + (object["state"]?.encodedString() ?? "none"))
            }
            let unknown = Set(object.keys).subtracting(["state", "for", "until", "transaction"])
            guard unknown.isEmpty else {
                throw CommandError("unknown field \(unknown.sorted().joined(separator: ", ")): outlet/<key>/set \(usage)")
            }
            return OutletSwitch(action: try action(state), duration: try TimedCommand.duration(in: object))
        case .json(let other):
            throw CommandError("outlet/<key>/set \(usage); got \(other.encodedString())")
        }
    }

    private static func action(_ word: String) throws(CommandError) -> Action {
        if word.lowercased() == Action.toggle.rawValue { return .toggle }
        guard let on = SwitchWord.parse(word) else { throw CommandError("outlet/<key>/set \(usage); got '\(word)'") }
        return on ? .on : .off
    }
}
