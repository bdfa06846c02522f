import BellasReefIntegration
import BridgeCore
import MQTT
import PiHoleIntegration
import UniFiIntegration

enum CommandFuzz {
    /// The input is a topic below the integration's root and a payload, split at the first
    /// newline: an MQTT message as any client may send it, read as every integration reads it.
    static func run(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)
        let topic = "home/x/" + String(decoding: parts[0], as: UTF8.self)
        let message = MQTTMessage(topic: topic, payload: parts.count > 1 ? Array(parts[1]) : [])
        guard case .success(let request)? = CommandRequest.parse(message, below: "home/x") else { return }
        PiHoleIntegrationFuzzing.parseCommand(request)
        ReefIntegrationFuzzing.parseCommand(request)
        UniFiIntegrationFuzzing.parseCommand(request)
        SceneFuzzing.parseCommand(request)
        _ = try? SwitchCommand.parse(request.payload, command: "group/<name>/set", flags: ["force"])
    }
}
