import BridgeCore

/// A Pi-hole command, read from its topic and payload before any API call is made.
enum PiHoleCommand: Equatable, Sendable {
    case pause(seconds: Int, target: Target)
    case resume(Target)
    case setBlocking(Bool, Target)
    case refresh(Target)
    case domain(DomainChange, Target)
    /// `group/<key or name>/set`.
    case group(String, SwitchCommand, Target)
    /// `client/<key or client>/groups/set`, `client/<key or client>/pause`.
    case client(String, ClientChange, Target)
    case recentlyBlocked(RecentlyBlockedRequest, Target)
    /// "Why is this blocked?": read only.
    case search(SearchRequest, Target)
    case action(PiHoleAction, Target)

    /// The plain topics act on every configured Pi-hole (pausing one of two is useless:
    /// clients fall back to the other); per-instance topics act on one.
    enum Target: Equatable, Sendable {
        case all
        case instance(String)
    }

    static let maximumPause = 86_400

    /// Whether all it can change of the published state is the blocking and the availability of
    /// its Pi-holes (and so the aggregate's): the publish after it covers those alone.
    var changesOnlyBlocking: Bool {
        switch self {
        case .pause, .resume, .setBlocking, .refresh, .domain, .search: true
        case .group, .client, .recentlyBlocked, .action: false
        }
    }

    /// - Parameters:
    ///   - instanceIDs: the configured ids, to tell `main/pause` from an unknown command.
    ///   - defaultPause: seconds for an empty `pause`.
    static func parse(_ request: CommandRequest, instanceIDs: [String], defaultPause: Int) throws(CommandError) -> PiHoleCommand {
        var path = request.path[...]
        var target = Target.all
        if let first = path.first, !PiHoleTopics.commandWords.contains(first) {
            guard instanceIDs.contains(first) else {
                throw CommandError("unknown Pi-hole '\(first)' (configured: \(instanceIDs.joined(separator: ", ")))", code: .unknownTarget)
            }
            target = .instance(first)
            path = path.dropFirst()
        }
        switch Array(path) {
        case ["pause"]:
            return .pause(seconds: try pauseSeconds(request.payload, default: defaultPause), target: target)
        case ["resume"]:
            return .resume(target)
        case ["refresh"]:
            return .refresh(target)
        case ["blocking", "set"]:
            return .setBlocking(try switchState(request.payload), target)
        case let words where words.count == 3 && words[0] == "domains":
            return .domain(try DomainChange.parse(list: words[1], action: words[2], payload: request.payload), target)
        case let words where words.count == 3 && words[0] == "group" && words[2] == "set":
            let command = try SwitchCommand.parse(request.payload, command: "group/<name>/set", flags: ["force"])
            return .group(words[1], command, target)
        case let words where words.count >= 3 && words[0] == "client":
            return .client(words[1], try ClientChange.parse(action: Array(words.dropFirst(2)), payload: request.payload), target)
        case ["recently_blocked", "get"]:
            return .recentlyBlocked(try RecentlyBlockedRequest.parse(request.payload), target)
        case ["search"]:
            return .search(try SearchRequest.parse(request.payload), target)
        case let words where words.count == 2 && words[0] == "action":
            guard let action = PiHoleAction(rawValue: words[1]) else {
                throw CommandError("unknown action '\(words[1].prefix(40))' (known: \(PiHoleAction.allCases.map(\.rawValue).joined(separator: ", ")))", code: .unknownTarget)
            }
            try requireNoArguments(request.payload, action.rawValue)
            return .action(action, target)
        default:
            throw CommandError("unknown Pi-hole command '\(request.path.joined(separator: "/"))'", code: .unknownTarget)
        }
    }

    private static func pauseSeconds(_ payload: CommandRequest.Payload, default fallback: Int) throws(CommandError) -> Int {
        let seconds: Double
        switch payload {
        case .empty:
            return fallback
        case .text(let text):
            guard let number = Double(text) else {
                throw CommandError("pause takes a number of seconds, {\"seconds\":N} or nothing; got '\(text)'")
            }
            seconds = number
        case .json(let json):
            guard let number = json["seconds"]?.numberValue else {
                throw CommandError("pause JSON needs a numeric \"seconds\" field")
            }
            seconds = number
        }
        guard seconds.rounded() == seconds, seconds >= 1, seconds <= Double(maximumPause) else {
            throw CommandError("pause seconds must be a whole number from 1 to \(maximumPause), got \(seconds)")
        }
        return Int(seconds)
    }

    /// A button sends nothing (or `{}` with a `transaction`): anything more is a mistake.
    private static func requireNoArguments(_ payload: CommandRequest.Payload, _ command: String) throws(CommandError) {
        switch payload {
        case .empty: return
        case .json(.object(let object)) where object.keys.allSatisfy({ $0 == "transaction" }): return
        default: throw CommandError("\(command) takes no payload")
        }
    }

    /// Home Assistant's switch sends `ON`/`OFF`; scripts may send `true`/`false` or JSON `{"state":…}`.
    private static func switchState(_ payload: CommandRequest.Payload) throws(CommandError) -> Bool {
        var text: String?
        switch payload {
        case .text(let value): text = value
        case .json(let json): text = json["state"]?.stringValue ?? json["blocking"]?.boolValue.map { $0 ? "on" : "off" }
        case .empty: text = nil
        }
        guard let text, let on = SwitchWord.parse(text) else { throw CommandError("blocking/set takes ON or OFF") }
        return on
    }
}
