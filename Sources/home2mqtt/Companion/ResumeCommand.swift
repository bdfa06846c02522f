import ArgumentParser
import BridgeCore
import PiHoleIntegration

/// `home2mqtt resume [--pihole ID]`: ends a pause, turns blocking back on.
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Turn Pi-hole blocking back on; exit 0 on success.")

    @OptionGroup var target: PiHoleTarget
    @OptionGroup var options: CompanionOptions

    func run() async throws {
        try await options.send(command, describe: describe)
    }

    func command(_ topics: BridgeTopics) -> BridgeCommand {
        BridgeCommand(topic: PiHoleTarget.topic(PiHoleTopics.resume(target.pihole), topics: topics), payload: "")
    }

    func describe(_ data: JSONValue) -> [String] {
        PiHoleReply.results(data, target: target.pihole).map { id, state in
            let blocking = state["blocking"]?.stringValue ?? "unknown"
            return blocking == "enabled" ? "resumed blocking on \(id)" : "\(id): blocking is \(blocking)"
        }
    }
}
