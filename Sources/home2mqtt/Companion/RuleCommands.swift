import ArgumentParser
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UniFiIntegration

/// `home2mqtt rules`: the UniFi rules the bridge manages, from the retained topics.
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the UniFi rules the bridge manages (key, name, on/off, pending restore); exit 2 when the bridge is not online.")

    @OptionGroup var options: CompanionOptions

    func run() async throws {
        try await runCompanion { () async throws(CompanionFailure) in
            let (topics, state) = try await options.retainedState()
            try StatusCommand.check(state, topics: topics)
            let rules = Self.rules(state, topics: topics)
            if options.json {
                print(JSONValue.array(rules).encodedString())
            } else {
                print(Self.table(rules).joined(separator: "\n"))
            }
        }
    }

    /// Each managed rule's state, by key.
    static func rules(_ state: [String: JSONValue], topics: BridgeTopics) -> [JSONValue] {
        let unifi = IntegrationTopics(bridge: topics, name: UniFiTopics.name)
        let keys = (state[unifi.topic(UniFiTopics.rules)]?.objectValue ?? [:]).keys.sorted()
        return keys.compactMap { state[unifi.topic(UniFiTopics.rule($0))] }
    }

    static func table(_ rules: [JSONValue], timeZone: TimeZone = .local, now: Date = Date()) -> [String] {
        guard !rules.isEmpty else { return ["no UniFi rules are managed (is the unifi section configured?)"] }
        let rows = rules.map { rule -> [String] in
            let restore = rule["restore_at"]?.stringValue.flatMap { TextFormat.localTime($0, timeZone: timeZone, now: now) }
                .map { "\(rule["restore_to"] == true ? "on" : "off") at \($0)" }
            return [
                rule["key"]?.stringValue ?? "?", rule["name"]?.stringValue ?? "?",
                rule["enabled"] == true ? "on" : "off", rule["kind"]?.stringValue ?? "?", restore ?? "-",
            ]
        }
        return TextFormat.table([["KEY", "NAME", "ENABLED", "KIND", "RESTORES"]] + rows)
    }
}

/// `home2mqtt rule NAME on|off [--for 30m]`: switches a UniFi rule, for a while or for good.
struct RuleSwitchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rule",
        abstract: "Switch a UniFi rule on or off, for good or --for a while (then it goes back by itself); exit 0 on success.",
        discussion: "NAME is the rule's key (see `home2mqtt rules`), its id, or its name as shown there.")

    enum State: String, ExpressibleByArgument, CaseIterable { case on, off }

    @Argument(help: "The rule: its key (downtime-emma), id, or name.")
    var name: String

    @Argument(help: "on or off.")
    var state: State

    @OptionGroup var timed: ForDuration

    @OptionGroup var options: CompanionOptions

    func run() async throws {
        try await options.send({ topics, session async throws(CompanionFailure) in
            let state = StatusCommand.parse(try await session.retainedState())
            return try command(topics, key: Self.key(for: name, in: state[Self.unifi(topics).topic(UniFiTopics.rules)]))
        }, describe: describe)
    }

    func command(_ topics: BridgeTopics, key: String) -> BridgeCommand {
        let payload = JSONValue.object(timed.adding(to: ["enabled": .bool(state == .on)]))
        return BridgeCommand(topic: Self.unifi(topics).topic(UniFiTopics.ruleSet(key)), payload: payload.encodedString())
    }

    private static func unifi(_ topics: BridgeTopics) -> IntegrationTopics { IntegrationTopics(bridge: topics, name: UniFiTopics.name) }

    /// The key of the one rule `name` means in the bridge's index: its key, its id, or its name
    /// (in any letter case). Two rules of one name are refused, never guessed between.
    static func key(for name: String, in index: JSONValue?) throws(CompanionFailure) -> String {
        let rules = (index?.objectValue ?? [:]).sorted { $0.key < $1.key }
        if rules.contains(where: { $0.key == name }) { return name }
        let matches = rules.filter { key, rule in
            rule["id"]?.stringValue?.lowercased() == name.lowercased() || rule["name"]?.stringValue?.lowercased() == name.lowercased()
        }
        switch matches.count {
        case 1: return matches[0].key
        case 0: throw .refused("no managed rule is called '\(name)' (keys: \(rules.map(\.key).joined(separator: ", ")))", code: .unknownTarget)
        default: throw .refused("several rules are called '\(name)': use a key (\(matches.map(\.key).joined(separator: ", ")))", code: .unknownTarget)
        }
    }

    func describe(_ data: JSONValue) -> [String] {
        let restore = data["restore_at"]?.stringValue.flatMap { TextFormat.localTime($0, timeZone: .local) }
        return ["\(data["name"]?.stringValue ?? name) is \(data["enabled"] == true ? "on" : "off")"
            + (restore.map { ", back \(data["restore_to"] == true ? "on" : "off") at \($0)" } ?? "")]
    }
}
