import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a client command does to a configured client's groups, read before any API call:
/// `client/<key>/groups/set` puts it in the groups named, `client/<key>/pause` takes its filtering
/// away for a while (in the bridge's own group without lists).
enum ClientChange: Equatable, Sendable {
    /// `create`: configure the client (named by IP, MAC or host name) where a Pi-hole lacks it.
    case groups([String], duration: Duration?, create: Bool)
    case pause(Duration)

    static let maximumGroups = 32
    static let groupsUsage = #"client/<key>/groups/set takes {"groups":["name",…]} with "for":SECONDS or "until":"ISO-8601" (and "create":true for a client the Pi-hole does not know)"#
    static let pauseUsage = #"client/<key>/pause takes {"for":SECONDS}, {"until":"ISO-8601"} or a number of seconds"#

    static func parse(action: [String], payload: CommandRequest.Payload, now: Date = Date()) throws(CommandError) -> ClientChange {
        switch action {
        case ["groups", "set"]: return try groups(payload, now: now)
        case ["pause"]: return .pause(try pauseDuration(payload, now: now))
        default: throw CommandError("unknown client command '\(action.joined(separator: "/").prefix(40))' (known: groups/set, pause)", code: .unknownTarget)
        }
    }

    private static func groups(_ payload: CommandRequest.Payload, now: Date) throws(CommandError) -> ClientChange {
        guard case .json(.object(let object)) = payload else { throw CommandError(groupsUsage) }
        try refuseUnknownKeys(object, known: ["groups", "for", "until", "create", "transaction"], usage: groupsUsage)
        guard case .array(let items)? = object["groups"], !items.isEmpty, items.count <= maximumGroups else {
            throw CommandError("\"groups\" must list 1 to \(maximumGroups) group names: \(groupsUsage)")
        }
        let names = items.compactMap(\.stringValue)
        guard names.count == items.count, names.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 256 }) else {
            throw CommandError("\"groups\" must list group names (text): \(groupsUsage)")
        }
        let create: Bool
        switch object["create"] {
        case nil, .bool(false)?: create = false
        case .bool(true)?: create = true
        case let other?: throw CommandError("\"create\" must be true or false, got \(other.encodedString().prefix(40))")
        }
        return .groups(names, duration: try TimedCommand.duration(in: object, now: now), create: create)
    }

    private static func pauseDuration(_ payload: CommandRequest.Payload, now: Date) throws(CommandError) -> Duration {
        switch payload {
        case .text(let text):
            guard let seconds = Double(text) else { throw CommandError("\(pauseUsage); got '\(text.prefix(40))'") }
            return try TimedCommand.duration(in: ["for": .number(seconds)], now: now)!
        case .json(.object(let object)):
            try refuseUnknownKeys(object, known: ["for", "until", "transaction"], usage: pauseUsage)
            guard let duration = try TimedCommand.duration(in: object, now: now) else { throw CommandError(pauseUsage) }
            return duration
        case .empty, .json:
            throw CommandError(pauseUsage)
        }
    }

    private static func refuseUnknownKeys(_ object: [String: JSONValue], known: Set<String>, usage: String) throws(CommandError) {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw CommandError("unknown key '\(unknown.prefix(40))': \(usage)")
        }
    }
}
