import ArgumentParser
import BridgeCore
import PiHoleIntegration

/// `home2mqtt why DOMAIN`: which allow and deny entries and which lists match a domain on each
/// Pi-hole, and whether it is blocked (for a client, or for the Default group's).
struct WhyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Say why a domain is blocked or not: the entries and lists that match it on each Pi-hole; exit 0 on success."
    )

    @Argument(help: "The domain (with --partial, a piece of domain names: 3 or more letters, digits, '.', '-', '_').")
    var domain: String

    @Option(help: "For this client (IP address, MAC address or host name): only its groups' entries and lists count. Without it, the Default group's.")
    var client: String?

    @Flag(help: "List the entries and lists containing DOMAIN instead (no verdict).")
    var partial = false

    @OptionGroup var target: PiHoleTarget
    @OptionGroup var options: CompanionOptions

    func run() async throws {
        try await options.send({ command(topics: $0) }, describe: { Self.describe($0, target: target.pihole) })
    }

    func command(topics: BridgeTopics) -> BridgeCommand {
        var question: [String: JSONValue] = ["domain": .string(domain)]
        if partial { question["partial"] = true }
        if let client { question["client"] = .string(client) }
        return BridgeCommand(topic: PiHoleTarget.topic(PiHoleTopics.search(target.pihole), topics: topics), payload: JSONValue.object(question).encodedString())
    }

    static func describe(_ data: JSONValue, target: String?) -> [String] {
        let domain = data["domain"]?.stringValue ?? "?"
        let client = data["client"]?.stringValue
        var lines: [String] = []
        for (id, answer) in (data["piholes"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let client {
                let groups = names(answer["client_groups"])
                lines.append(answer["client_configured"] == true
                    ? "\(client) on \(id) is in \(groups)"
                    : "\(client) is not configured on \(id): in the Default group, as every unknown client")
            }
            lines += data["partial"] == true ? found(id, answer, client: client) : verdict(domain, id, answer, client: client)
            if answer["truncated"] == true { lines.append("  (more matches on \(id) than shown)") }
        }
        for (id, error) in (data["errors"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("\(id) did not answer: \(error.stringValue ?? "")")
        }
        if data["blocked"] == true {
            lines.append("to let it through: home2mqtt allow \(domain)\(target.map { " --pihole \($0)" } ?? "")")
        }
        return lines
    }

    /// The verdict on one Pi-hole, then every other match and why it did not count.
    private static func verdict(_ domain: String, _ id: String, _ answer: JSONValue, client: String?) -> [String] {
        let decided = matches(answer["decided_by"])
        let because = decided.map(describe).joined(separator: "; ")
        let line = switch answer["reason"]?.stringValue {
        case "deny_entry", "block_list": "\(domain) is blocked on \(id) by: \(because)"
        case "allow_entry": "\(domain) is allowed on \(id) by \(decided.count == 1 ? article(decided[0]) + " " : ": ")\(because)"
        case "allow_list": "\(domain) is not blocked on \(id): \(because) exempts it from the block lists"
        case "none_applies": "\(domain) is not blocked on \(id): nothing that matches it applies"
        default: "\(domain) is not blocked on \(id): no entry or list matches it"
        }
        let others = matches(answer["matches"]).filter { !decided.contains($0) }
        return [line] + others.map { match in
            let why = match["applies_to_client"] == false ? notApplying(match, client) : "overridden"
            return "  also matches: \(describe(match)) (\(why))"
        }
    }

    /// A partial search: each match, no verdict.
    private static func found(_ id: String, _ answer: JSONValue, client: String?) -> [String] {
        let all = matches(answer["matches"])
        guard !all.isEmpty else { return ["nothing on \(id) contains it"] }
        return ["on \(id):"] + all.map { match in
            let note = match["applies_to_client"] == false ? notApplying(match, client) : ""
            return "  \(describe(match))\(note.isEmpty ? "" : " (\(note))")"
        }
    }

    /// Why a match does not apply (`not_applying`): it is off, the groups it shares with the
    /// client are off, or it is in none of them.
    private static func notApplying(_ match: JSONValue, _ client: String?) -> String {
        switch match["not_applying"]?.stringValue ?? (match["enabled"] == false ? "disabled" : nil) {
        case "disabled": "disabled"
        case "group_disabled": client == nil ? "the Default group is disabled" : "its group for this client is disabled"
        default: client == nil ? "not for the Default group" : "not for this client"
        }
    }

    private static func article(_ match: JSONValue) -> String {
        match["kind"] == "exact" ? "an" : "a"
    }

    private static func matches(_ value: JSONValue?) -> [JSONValue] {
        (value?["domains"]?.arrayValue ?? []) + (value?["lists"]?.arrayValue ?? [])
    }

    /// "exact deny entry ads.example (groups: Default)", "block list https://… holding ||example^ (groups: Default)".
    private static func describe(_ match: JSONValue) -> String {
        let groups = "groups: \(names(match["groups"]))"
        if let address = match["address"]?.stringValue {
            return "\(match["type"]?.stringValue ?? "?") list \(address) holding \(match["domain"]?.stringValue ?? "?") (\(groups))"
        }
        let kind = match["kind"]?.stringValue ?? "?"
        return "\(kind) \(match["list"]?.stringValue ?? "?") entry \(match["domain"]?.stringValue ?? "?") (\(groups))"
    }

    private static func names(_ groups: JSONValue?) -> String {
        let names = (groups?.arrayValue ?? []).compactMap(\.stringValue)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}
