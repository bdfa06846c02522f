import BridgeCore

/// A Bella's Reef command, read from its topic and payload before any API call is made.
enum ReefCommand: Equatable, Sendable {
    /// `outlet/<key or id>/set`.
    case setOutlet(target: String, OutletSwitch)
    case refresh

    static func parse(_ request: CommandRequest) throws(CommandError) -> ReefCommand {
        switch request.path {
        case ["refresh"]:
            return .refresh
        case let path where path.count == 3 && path[0] == "outlet" && path[2] == "set":
            return .setOutlet(target: path[1], try OutletSwitch.parse(request.payload))
        default:
            throw CommandError("unknown Bella's Reef command '\(request.path.joined(separator: "/"))'")
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
