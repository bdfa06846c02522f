import ArgumentParser
import BellasReefIntegration
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `home2mqtt outlet NAME on|off|toggle [--for 10m]`: switches an aquarium outlet.
struct OutletCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outlet",
        abstract: "Switch a Bella's Reef outlet on, off or over; with --for, only for a while. Exit 0 on success."
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case on, off, toggle
    }

    @Argument(help: "The outlet: its key (return-pump, as in home/reef/outlets) or its id.")
    var outlet: String

    @Argument(help: "on, off or toggle.")
    var action: Action

    @OptionGroup var timed: ForDuration

    @OptionGroup var options: CompanionOptions

    func validate() throws {
        guard !outlet.isEmpty, !outlet.contains(where: { "/+#".contains($0) || $0.isWhitespace }) else {
            throw ValidationError("the outlet is a key such as 'return-pump' or an id, got '\(outlet)'")
        }
    }

    func run() async throws {
        try await options.send(command, describe: { describe($0) })
    }

    /// `{"state":"off","for":600}` to `home/reef/outlet/<key>/set`; plain `ON`/`OFF`/`TOGGLE` without `--for`.
    func command(_ topics: BridgeTopics) -> BridgeCommand {
        let topic = IntegrationTopics(bridge: topics, name: ReefTopics.name).topic(ReefTopics.outletSet(outlet))
        guard timed.duration != nil else { return BridgeCommand(topic: topic, payload: action.rawValue.uppercased()) }
        return BridgeCommand(topic: topic, payload: JSONValue.object(timed.adding(to: ["state": .string(action.rawValue)])).encodedString())
    }

    func describe(_ data: JSONValue, timeZone: TimeZone = .local, now: Date = Date()) -> [String] {
        let name = data["name"]?.stringValue ?? outlet
        var line = "\(name) is \(data["state"]?.stringValue ?? "unknown")"
        if let restoreAt = data["restore_at"]?.stringValue, let time = TextFormat.localTime(restoreAt, timeZone: timeZone, now: now) {
            line += ", back \(data["restore_state"]?.stringValue ?? "as it was") at \(time)"
        }
        return [line]
    }
}
