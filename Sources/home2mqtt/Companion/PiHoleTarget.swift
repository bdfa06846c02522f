import ArgumentParser
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleIntegration

/// `--pihole ID`: one Pi-hole, or (without it) every configured one.
struct PiHoleTarget: ParsableArguments {
    @Option(help: "Only this Pi-hole (its id in the bridge's configuration); without it, all of them.")
    var pihole: String?

    func validate() throws {
        if let pihole, pihole.isEmpty || pihole.contains(where: { "/+#".contains($0) || $0.isWhitespace }) {
            throw ValidationError("--pihole takes an instance id such as 'main', got '\(pihole)'")
        }
    }

    /// The full topic of a Pi-hole command, `relative` being one of `PiHoleTopics`' paths.
    static func topic(_ relative: String, topics: BridgeTopics) -> String {
        IntegrationTopics(bridge: topics, name: PiHoleTopics.name).topic(relative)
    }

    /// "on main" or "on every Pi-hole".
    var scope: String { pihole.map { "on \($0)" } ?? "on every Pi-hole" }
}

/// Reading the bridge's answers to Pi-hole commands.
enum PiHoleReply {
    /// An answer's `data` is one Pi-hole's result for a targeted command, or results by id.
    static func results(_ data: JSONValue, target: String?) -> [(id: String, value: JSONValue)] {
        if let target { return [(target, data)] }
        return (data.objectValue ?? [:]).sorted(by: { $0.key < $1.key }).map { (id: $0.key, value: $0.value) }
    }

    /// ", resumes at 14:03:12" when the state names the time, else "".
    static func resumeClause(_ state: JSONValue, timeZone: TimeZone = .local, now: Date = Date()) -> String {
        guard let iso = state["resumes_at"]?.stringValue, let time = TextFormat.localTime(iso, timeZone: timeZone, now: now) else {
            return ""
        }
        return ", resumes at \(time)"
    }
}
