import BridgeCore

/// A UniFi command, read from its topic and payload before any API call is made.
enum UniFiCommand: Sendable {
    case refresh
    /// `rule/<key or id>/set`.
    case setRule(keyOrID: String, SwitchCommand)

    static func parse(_ request: CommandRequest) throws(CommandError) -> UniFiCommand {
        switch request.path {
        case [UniFiTopics.refresh]:
            return .refresh
        case let path where path.count == 3 && path[0] == "rule" && path[2] == "set":
            return .setRule(keyOrID: path[1], try SwitchCommand.parse(request.payload, command: "rule set"))
        default:
            throw CommandError("unknown UniFi command '\(request.path.joined(separator: "/"))'")
        }
    }
}
