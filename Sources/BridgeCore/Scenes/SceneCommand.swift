#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `scene/<key>/set`: ON (for good, or for a while) or OFF, read before any part runs.
enum SceneCommand: Sendable, Equatable {
    /// `duration`: `nil` until OFF.
    case on(String, duration: Duration?)
    case off(String)

    var key: String {
        switch self {
        case .on(let key, _), .off(let key): key
        }
    }

    static let usage = #"scene/<key>/set takes ON, OFF, or {"state":"on"|"off"} with "for":SECONDS or "until":"ISO-8601" for ON"#

    static func parse(_ request: CommandRequest, scenes: [String], now: Date = Date()) throws(CommandError) -> SceneCommand {
        guard request.path.count == 2, request.path[1] == "set" else {
            throw CommandError("unknown scene command '\(request.path.joined(separator: "/").prefix(80))': \(usage)", code: .unknownTarget)
        }
        let key = request.path[0]
        guard scenes.contains(key) else {
            throw CommandError("unknown scene '\(key.prefix(80))' (configured: \(scenes.isEmpty ? "none" : scenes.joined(separator: ", ")))", code: .unknownTarget)
        }
        switch request.payload {
        case .empty:
            throw CommandError("\(usage); got nothing")
        case .text(let text):
            guard let on = SwitchWord.parse(text) else { throw CommandError("\(usage); got '\(text.prefix(40))'") }
            return on ? .on(key, duration: nil) : .off(key)
        case .json(.object(let object)):
            if let unknown = object.keys.sorted().first(where: { !["state", "for", "until", "transaction"].contains($0) }) {
                throw CommandError("unknown key '\(unknown.prefix(40))': \(usage)")
            }
            guard case .string(let state)? = object["state"], let on = SwitchWord.parse(state) else {
                throw CommandError(#""state" must be "on" or "off": "# + usage)
            }
            let duration = try TimedCommand.duration(in: object, now: now)
            guard on else {
                guard duration == nil else { throw CommandError("OFF takes no time: the scene ends now") }
                return .off(key)
            }
            return .on(key, duration: duration)
        case .json:
            throw CommandError(usage)
        }
    }
}
