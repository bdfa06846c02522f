import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One change the page is told of, as it happens.
public enum ActivityEvent: Sendable {
    /// A retained state topic changed (an empty payload: cleared).
    case retained(topic: String, payload: String, changedAt: Date)
    /// A message on `bridge/logging` or `bridge/event`.
    case message(BridgeMessage)
    /// A command was answered.
    case command(CommandRecord)

    /// The server-sent event's name.
    public var name: String {
        switch self {
        case .retained: "retained"
        case .message: "message"
        case .command: "command"
        }
    }

    public var json: JSONValue {
        switch self {
        case .retained(let topic, let payload, let changedAt):
            ["topic": .string(topic), "payload": .string(payload), "changed_at": .string(changedAt.iso8601)]
        case .message(let message): message.json
        case .command(let record): record.json
        }
    }
}

/// A message the bridge published, not retained, about itself (warnings, errors, events).
public struct BridgeMessage: Sendable {
    public let topic: String
    public let payload: String
    public let time: Date

    public var json: JSONValue {
        ["topic": .string(topic), "payload": .string(payload), "time": .string(time.iso8601)]
    }
}

/// A command and its answer, MQTT's and the page's alike.
public struct CommandRecord: Sendable {
    public let topic: String
    public let payload: String
    public let answer: String
    public let seconds: Double
    public let time: Date
    /// Sent from the page rather than over MQTT.
    public let fromPage: Bool

    public var json: JSONValue {
        [
            "topic": .string(topic), "payload": .string(payload), "answer": .string(answer),
            "seconds": .number(seconds), "time": .string(time.iso8601), "from_page": .bool(fromPage),
        ]
    }
}
