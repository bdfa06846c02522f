import ArgumentParser
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `home2mqtt scene NAME on|off [--for 1h]`: a scene of `scenes:`, across integrations.
struct SceneSwitchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Turn a scene on (every part; with --for, only for a while) or off (each part back as it was before). Exit 0 when every part succeeded."
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case on, off
    }

    @Argument(help: "The scene: its name as configured (\"Quiet evening\") or its key (quiet-evening).")
    var scene: String

    @Argument(help: "on or off.")
    var action: Action

    @OptionGroup var timed: ForDuration

    @OptionGroup var options: CompanionOptions

    func validate() throws {
        if action == .off, timed.duration != nil { throw ValidationError("off takes no --for: the scene ends now") }
        guard !SceneTopics.key(scene).isEmpty, !scene.contains(where: { "/+#".contains($0) }) else {
            throw ValidationError("the scene is a name or key such as 'quiet-evening', got '\(scene)'")
        }
    }

    func run() async throws {
        try await options.send(command, describe: { describe($0) })
    }

    /// `ON`/`OFF` to `home/scene/<key>/set`; `{"state":"on","for":3600}` with `--for`.
    func command(_ topics: BridgeTopics) -> BridgeCommand {
        let topic = IntegrationTopics(bridge: topics, name: SceneTopics.name).topic(SceneTopics.set(SceneTopics.key(scene)))
        guard timed.duration != nil else { return BridgeCommand(topic: topic, payload: action.rawValue.uppercased()) }
        return BridgeCommand(topic: topic, payload: JSONValue.object(timed.adding(to: ["state": "on"])).encodedString())
    }

    func describe(_ data: JSONValue, timeZone: TimeZone = .local, now: Date = Date()) -> [String] {
        var line = "\(scene) is \(data["state"]?.stringValue ?? "unknown")"
        if let until = data["until"]?.stringValue, let time = TextFormat.localTime(until, timeZone: timeZone, now: now) {
            line += " until \(time)"
        }
        let parts = (data["parts"]?.arrayValue ?? []).compactMap { part -> String? in
            guard let status = part["status"]?.stringValue else { return nil }
            let name = "\(part["kind"]?.stringValue ?? "?") \(part["target"]?.stringValue ?? "?")"
            return "  \(name): \(status == "ok" ? "ok" : part["error"]?.stringValue ?? status)"
        }
        return [line] + parts
    }
}
