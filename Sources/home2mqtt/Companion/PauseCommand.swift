import ArgumentParser
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleIntegration

/// `home2mqtt pause [SECONDS] [--pihole ID]`: pauses ad blocking.
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause Pi-hole blocking for SECONDS (the bridge's pihole.default_pause without it); exit 0 on success."
    )

    @Argument(help: "How long, in seconds (1 to 86400).")
    var seconds: Int?

    @OptionGroup var target: PiHoleTarget
    @OptionGroup var options: CompanionOptions

    func run() async throws {
        try await options.send(command, describe: { describe($0) })
    }

    /// `30` to `home/pihole/main/pause`; nothing (the bridge's default) without seconds.
    func command(_ topics: BridgeTopics) -> BridgeCommand {
        BridgeCommand(
            topic: PiHoleTarget.topic(PiHoleTopics.pause(target.pihole), topics: topics),
            payload: seconds.map { String($0) } ?? ""
        )
    }

    func describe(_ data: JSONValue, timeZone: TimeZone = .local, now: Date = Date()) -> [String] {
        PiHoleReply.results(data, target: target.pihole).map { id, state in
            let length = seconds.map { "\($0) s" } ?? state["timer"]?.numberValue.map { TextFormat.duration(seconds: $0) }
            return "paused blocking on \(id)" + (length.map { " for \($0)" } ?? "")
                + PiHoleReply.resumeClause(state, timeZone: timeZone, now: now)
        }
    }
}
