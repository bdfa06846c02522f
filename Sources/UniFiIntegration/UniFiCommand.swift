import BridgeCore

/// A UniFi command, read from its topic and payload before any API call is made.
enum UniFiCommand: Sendable {
    case refresh
    /// `rule/<key or id>/set`.
    case setRule(keyOrID: String, SwitchCommand)
    /// `[controller/<id>/]voucher/create|revoke|preset/<minutes>`, for the console named or the
    /// only one; codes go in the answer only when it is the requester's alone.
    case voucher(controller: String, VoucherCommand, codesInAnswer: Bool)

    static func parse(_ request: CommandRequest, controllers: [String], presets: [Int]) throws(CommandError) -> UniFiCommand {
        switch request.path {
        case [UniFiTopics.refresh]:
            return .refresh
        case let path where path.count == 3 && path[0] == "rule" && path[2] == "set":
            return .setRule(keyOrID: path[1], try SwitchCommand.parse(request.payload, command: "rule set"))
        case let path where path.first == "voucher":
            return .voucher(
                controller: try onlyController(controllers), try voucher(Array(path.dropFirst()), request.payload, presets: presets),
                codesInAnswer: request.answeredPrivately)
        case let path where path.count > 2 && path[0] == "controller" && path[2] == "voucher":
            guard controllers.contains(path[1]) else {
                throw CommandError("unknown UniFi console '\(path[1].prefix(40))' (configured: \(controllers.joined(separator: ", ")))", code: .unknownTarget)
            }
            return .voucher(
                controller: path[1], try voucher(Array(path.dropFirst(3)), request.payload, presets: presets),
                codesInAnswer: request.answeredPrivately)
        default:
            throw CommandError("unknown UniFi command '\(request.path.joined(separator: "/"))'", code: .unknownTarget)
        }
    }

    private static func voucher(_ path: [String], _ payload: CommandRequest.Payload, presets: [Int]) throws(CommandError) -> VoucherCommand {
        switch path {
        case ["create"]: try VoucherCommand.create(payload)
        case ["revoke"]: try VoucherCommand.revoke(payload)
        case let path where path.count == 2 && path[0] == "preset": try VoucherCommand.preset(path[1], allowed: presets)
        default: throw CommandError("unknown voucher command '\(path.joined(separator: "/"))'", code: .unknownTarget)
        }
    }

    /// Vouchers are a console's: with several, the command must name one, never guessed.
    private static func onlyController(_ controllers: [String]) throws(CommandError) -> String {
        guard controllers.count == 1 else {
            throw CommandError("several UniFi consoles are configured: send to controller/<id>/voucher/… (\(controllers.joined(separator: ", ")))", code: .unknownTarget)
        }
        return controllers[0]
    }
}
