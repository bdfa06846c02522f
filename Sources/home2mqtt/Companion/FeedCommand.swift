import ArgumentParser
import BellasReefIntegration
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `home2mqtt feed [--for 10m] | --cancel`: the aquarium's feed mode.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Feed mode: the outlets of reef.feed off for a while (default reef.feed.default_minutes), each back as it was after. Exit 0 on success."
    )

    @OptionGroup var timed: ForDuration

    @Flag(help: "End the feed now: each outlet back as it was.")
    var cancel = false

    @OptionGroup var options: CompanionOptions

    func validate() throws {
        if cancel, timed.duration != nil { throw ValidationError("--cancel takes no --for") }
    }

    func run() async throws {
        try await options.send(command, describe: { describe($0) })
    }

    func command(_ topics: BridgeTopics) -> BridgeCommand {
        let reef = IntegrationTopics(bridge: topics, name: ReefTopics.name)
        if cancel { return BridgeCommand(topic: reef.topic(ReefTopics.feedCancel), payload: "") }
        let payload = timed.duration == nil ? "" : JSONValue.object(timed.adding(to: [:])).encodedString()
        return BridgeCommand(topic: reef.topic(ReefTopics.feedStart), payload: payload)
    }

    func describe(_ data: JSONValue, timeZone: TimeZone = .local, now: Date = Date()) -> [String] {
        guard data["active"] == true else {
            let staged = (data["back_at"]?.objectValue ?? [:]).sorted { $0.key < $1.key }.map { outlet, at in
                "  \(outlet): back at \(at.stringValue.flatMap { TextFormat.localTime($0, timeZone: timeZone, now: now) } ?? "?")"
            }
            return staged.isEmpty ? ["feeding ended: every feed outlet is back as it was"] : ["feeding ended: the feed outlets are back as they were, but"] + staged
        }
        var lines = ["feeding"]
        if let until = data["until"]?.stringValue, let time = TextFormat.localTime(until, timeZone: timeZone, now: now) {
            lines[0] += " until \(time)"
        }
        for (outlet, result) in (data["outlets"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("  \(outlet): \(result.stringValue ?? "?")")
        }
        return lines
    }
}
