import ArgumentParser
import BridgeCore
import MQTT

/// `home2mqtt status`: everything the bridge has published, from the retained topics.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the current state from the retained topics; exit 2 when the bridge is not online.",
        discussion: "Reads MQTT only: no Pi-hole (or other upstream) credentials are needed."
    )

    @OptionGroup var options: CompanionOptions

    func run() async throws {
        try await runCompanion { () async throws(CompanionFailure) in
            let (topics, state) = try await options.retainedState()
            if options.json {
                print(JSONValue.object(state).encodedString())
            } else if !state.isEmpty {
                print(StatusTable(base: topics.base, state: state).text)
            }
            try Self.check(state, topics: topics)
        }
    }

    /// Payloads as JSON where they are JSON, as text otherwise.
    static func parse(_ retained: [String: MQTTMessage]) -> [String: JSONValue] {
        retained.mapValues { message in
            JSONValue.parse(message.payload) ?? .string(message.payloadString ?? "")
        }
    }

    /// Success only when the bridge says it is online.
    static func check(_ state: [String: JSONValue], topics: BridgeTopics) throws(CompanionFailure) {
        switch state[topics.state]?.stringValue {
        case BridgeTopics.online?:
            return
        case let other?:
            throw .unreachable("the bridge is \(other) (\(topics.state))")
        case nil:
            throw .unreachable("no bridge state on \(topics.state): is the bridge running, with base topic '\(topics.base)'?")
        }
    }
}
