import BridgeCore
import JSONDocument
import MQTT
import Synchronization

/// One command to the bridge: a topic and a payload, answered on an MQTT 5 response topic with
/// correlation data (the bridge's command contract, docs/topics.md).
struct BridgeCommand: Sendable {
    let topic: String
    let payload: String

    enum Outcome: Sendable {
        case ok(Duration)
        case error(Duration)
        case lost
    }

    static func piHolePause(_ id: String) -> BridgeCommand {
        BridgeCommand(topic: "home/pihole/\(id)/pause", payload: "30")
    }

    /// ON for even `round`s, OFF for odd: every command changes the rule, so each one is a PUT.
    static func ruleSet(_ key: String, round: Int) -> BridgeCommand {
        BridgeCommand(topic: "home/unifi/rule/\(key)/set", payload: round.isMultiple(of: 2) ? "ON" : "OFF")
    }
}

/// Numbers the response topics of one process's commands.
private let nextReply = Atomic<Int>(0)

extension MeasuringClient {
    static let replies = BridgeTopics(base: "home").replies + "/bench"

    /// Sends `command` and times its answer; `.lost` when none came within `timeout`.
    func send(_ command: BridgeCommand, timeout: Duration = .seconds(10)) async -> BridgeCommand.Outcome {
        let replyTopic = "\(Self.replies)/\(nextReply.add(1, ordering: .relaxed).newValue)"
        let properties = MQTTProperties(responseTopic: replyTopic, correlationData: Array(replyTopic.utf8))
        guard let (elapsed, payload) = try? await roundTrip(
            publishing: command.payload, to: command.topic, answeredOn: replyTopic, properties: properties, timeout: timeout)
        else { return .lost }
        return JSONValue.parse(payload)?["status"] == "ok" ? .ok(elapsed) : .error(elapsed)
    }
}
