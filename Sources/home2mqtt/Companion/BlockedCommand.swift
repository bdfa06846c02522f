import ArgumentParser
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleIntegration

/// `home2mqtt blocked`: what the Pi-holes blocked lately, newest first — the domains to allow
/// (`home2mqtt allow DOMAIN`) when a site broke.
struct BlockedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "blocked", abstract: "List the domains the Pi-holes blocked lately, newest first; exit 0 on success."
    )

    @Option(help: "How far back, in minutes (1…1440).")
    var minutes = 10

    @Option(help: "Only what this client (an IP address) asked for.")
    var client: String?

    @Option(help: "At most this many domains (1…500).")
    var limit = 50

    @OptionGroup var target: PiHoleTarget
    @OptionGroup var options: CompanionOptions

    func validate() throws {
        guard (1...1440).contains(minutes) else { throw ValidationError("--minutes takes 1…1440, got \(minutes)") }
        guard (1...500).contains(limit) else { throw ValidationError("--limit takes 1…500, got \(limit)") }
    }

    func run() async throws {
        try await options.send({ command(topics: $0) }, describe: { Self.describe($0) })
    }

    func command(topics: BridgeTopics) -> BridgeCommand {
        var question: [String: JSONValue] = ["minutes": .number(Double(minutes)), "limit": .number(Double(limit))]
        if let client { question["client"] = .string(client) }
        return BridgeCommand(
            topic: PiHoleTarget.topic(PiHoleTopics.recentlyBlocked(target.pihole), topics: topics),
            payload: JSONValue.object(question).encodedString())
    }

    /// One line per domain: when it was last blocked, how often, for whom.
    static func describe(_ data: JSONValue, timeZone: TimeZone = .local, now: Date = Date()) -> [String] {
        let domains = data["domains"]?.arrayValue ?? []
        var lines = domains.isEmpty ? ["nothing blocked in the last \(data["minutes"]?.numberValue.map { Int($0) } ?? 0) minutes"] : []
        for domain in domains {
            let time = domain["last_blocked"]?.stringValue.flatMap { TextFormat.localTime($0, timeZone: timeZone, now: now) } ?? "?"
            let count = Int(domain["count"]?.numberValue ?? 0)
            let clients = (domain["clients"]?.arrayValue ?? []).map { client in
                client["name"]?.stringValue.map { "\($0) (\(client["ip"]?.stringValue ?? ""))" } ?? client["ip"]?.stringValue ?? "?"
            }
            lines.append("\(time)  \(domain["domain"]?.stringValue ?? "?")  ×\(count)  \(clients.joined(separator: ", "))")
        }
        if data["truncated"] == true { lines.append("(more were blocked than shown: raise --limit or narrow --minutes / --client)") }
        for (id, error) in (data["errors"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("\(id) did not answer: \(error.stringValue ?? "")")
        }
        return lines
    }
}
