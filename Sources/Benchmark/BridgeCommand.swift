import BridgeCore
import JSONDocument
import MQTT
import SimulatorSupport
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

    /// An upstream object commands go to: a Pi-hole, a UniFi rule, a Bella's Reef outlet. Each is
    /// a lane of its own in the bridge (one command at a time), so throughput spreads over them.
    enum Target: Sendable, Hashable {
        case piHole(String)
        case rule(String)
        case outlet(String)

        /// The integration, as the report names the kind.
        var integration: String {
            switch self {
            case .piHole: "pihole"
            case .rule: "unifi"
            case .outlet: "reef"
            }
        }

        /// The `round`th command to this object: a pause of 30 or 31 s, or ON or OFF, in turn, so
        /// that every command changes something upstream (a PUT, a switch) and in the state.
        func command(round: Int) -> BridgeCommand {
            let onOff = round.isMultiple(of: 2) ? "ON" : "OFF"
            return switch self {
            case .piHole(let id): BridgeCommand(topic: "home/pihole/\(id)/pause", payload: "\(pauseSeconds(round: round))")
            case .rule(let key): BridgeCommand(topic: "home/unifi/rule/\(key)/set", payload: onOff)
            case .outlet(let key): BridgeCommand(topic: "home/reef/outlet/\(key)/set", payload: onOff)
            }
        }

        private func pauseSeconds(round: Int) -> Int { round.isMultiple(of: 2) ? 30 : 31 }

        /// Whether `request` is the upstream call that carries the `round`th command out: the
        /// blocking POST, the rule's PUT (after its GET), the outlet's switch (before its read-back).
        func isUpstreamCall(_ request: RecordedRequest, round: Int) -> Bool {
            switch self {
            case .piHole: request.method == "POST" && request.path == "/api/dns/blocking"
            case .rule: request.method == "PUT"
            case .outlet: request.method == "POST" && request.path.hasSuffix(round.isMultiple(of: 2) ? "/turn_on" : "/turn_off")
            }
        }

        /// Whether `state`, published on `stateTopic`, shows the `round`th command carried out:
        /// the pause's own timer (a poll reads it lower), the rule's or the outlet's new state.
        func showsCommand(round: Int, in state: JSONValue) -> Bool {
            let on = round.isMultiple(of: 2)
            return switch self {
            case .piHole: state["blocking"] == "disabled" && state["timer"] == .number(Double(pauseSeconds(round: round)))
            case .rule: state["enabled"] == .bool(on)
            case .outlet: state["state"] == .string(on ? "on" : "off")
            }
        }

        /// Where the bridge publishes this object's state.
        var stateTopic: String {
            switch self {
            case .piHole(let id): "home/pihole/\(id)"
            case .rule(let key): "home/unifi/rule/\(key)"
            case .outlet(let key): "home/reef/outlet/\(key)"
            }
        }
    }
}

/// Numbers the response topics of one process's commands.
private let nextReply = Atomic<Int>(0)

extension MeasuringClient {
    static let replies = BridgeTopics(base: "home").replies + "/bench"

    /// Sends `command` and times its answer from `start` (by default: now); `.lost` when none
    /// came within `timeout`.
    func send(
        _ command: BridgeCommand, timeout: Duration = .seconds(10), startingAt start: ContinuousClock.Instant = .now
    ) async -> BridgeCommand.Outcome {
        let replyTopic = "\(Self.replies)/\(nextReply.add(1, ordering: .relaxed).newValue)"
        let properties = MQTTProperties(responseTopic: replyTopic, correlationData: Array(replyTopic.utf8))
        guard let (elapsed, payload) = try? await roundTrip(
            publishing: command.payload, to: command.topic, answeredOn: replyTopic, properties: properties, timeout: timeout,
            startingAt: start)
        else { return .lost }
        return JSONValue.parse(payload)?["status"] == "ok" ? .ok(elapsed) : .error(elapsed)
    }
}
