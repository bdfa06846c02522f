import ArgumentParser
import BridgeCore
import PiHoleIntegration

/// `home2mqtt allow DOMAIN`: adds to (or with `--remove` removes from) the Pi-holes' allow list.
struct AllowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow", abstract: "Add a domain to the Pi-hole allow list (--remove: take it off); exit 0 on success."
    )

    @OptionGroup var change: DomainChangeOptions

    func run() async throws { try await change.send(list: .allow) }
}

/// `home2mqtt deny DOMAIN`: adds to (or with `--remove` removes from) the Pi-holes' deny list.
struct DenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Add a domain to the Pi-hole deny list (--remove: take it off); exit 0 on success."
    )

    @OptionGroup var change: DomainChangeOptions

    func run() async throws { try await change.send(list: .deny) }
}

/// What `allow` and `deny` share: the domain, how it is matched, and where it goes.
struct DomainChangeOptions: ParsableArguments {
    enum List: String { case allow, deny }

    @Argument(help: "The domain (or, with --regex, the regular expression).")
    var domain: String

    @Flag(help: "Remove the entry instead of adding it.")
    var remove = false

    @Flag(help: "The entry is a regular expression, not an exact domain.")
    var regex = false

    @Option(help: "A comment stored with the entry on the Pi-hole.")
    var comment: String?

    @OptionGroup var target: PiHoleTarget
    @OptionGroup var options: CompanionOptions

    func send(list: List) async throws {
        try await options.send({ command(list: list, topics: $0) }, describe: { describe(list: list, data: $0) })
    }

    /// A plain domain, or JSON when a kind or comment must travel with it.
    func command(list: List, topics: BridgeTopics) -> BridgeCommand {
        let relative = PiHoleTopics.domains(target.pihole, list: list.rawValue, action: remove ? "remove" : "add")
        var payload = domain
        if regex || comment != nil {
            var object: [String: JSONValue] = ["domain": .string(domain), "kind": regex ? "regex" : "exact"]
            if let comment { object["comment"] = .string(comment) }
            payload = JSONValue.object(object).encodedString()
        }
        return BridgeCommand(topic: PiHoleTarget.topic(relative, topics: topics), payload: payload)
    }

    func describe(list: List, data: JSONValue) -> [String] {
        PiHoleReply.results(data, target: target.pihole).map { id, result in
            let entry = result["domain"]?.stringValue ?? domain
            let what = result["kind"]?.stringValue == "regex" ? "regex '\(entry)'" : entry
            return remove
                ? "removed \(what) from the \(list.rawValue) list on \(id)"
                : "added \(what) to the \(list.rawValue) list on \(id)"
        }
    }
}
