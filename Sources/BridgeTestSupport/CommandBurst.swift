import BridgeCore
import Foundation
import MQTT
import MQTTTestSupport
import Synchronization

/// Commands sent without waiting for their answers, each with an MQTT 5 response topic of its
/// own, so that a test can stop, kill or cut off the bridge in the middle of them and then read
/// which were answered, how, and how often.
public final class CommandBurst: Sendable {
    public struct Sent: Sendable {
        public let topic: String
        public let payload: String
        public let replyTopic: String
    }

    public let observer: Observer
    private let log = Mutex<[Sent]>([])

    /// `observer` must read `home/replies/#` (every `Observer` does).
    public init(_ observer: Observer) {
        self.observer = observer
    }

    public var sent: [Sent] { log.withLock { $0 } }

    /// Publishes one command with QoS 1, and an MQTT 5 message expiry when `expiry` (seconds) is
    /// given. Returns once the broker has it (offline, once the client has reconnected).
    @discardableResult
    public func send(_ topic: String, _ payload: String, expiry: UInt32? = nil) async throws -> Sent {
        let command = Sent(topic: topic, payload: payload, replyTopic: Self.replies + UUID().uuidString)
        let properties = MQTTProperties(
            responseTopic: command.replyTopic, correlationData: Array(command.replyTopic.utf8), messageExpiryInterval: expiry)
        log.withLock { $0.append(command) }
        try await observer.client.publish(topic, payload: Array(payload.utf8), qos: .atLeastOnce, properties: properties)
        return command
    }

    /// Every answer `command` got so far (one, when all is well).
    public func answers(_ command: Sent) -> [JSONValue] {
        observer.recorder.messages.filter { $0.topic == command.replyTopic }.map { JSONValue.parse($0.payload) ?? .null }
    }

    /// Every command sent with its answers, read in one pass (for thousands of commands).
    public func answered() -> [(command: Sent, answers: [JSONValue])] {
        let byTopic = Dictionary(grouping: observer.recorder.messages.filter { $0.topic.hasPrefix(Self.replies) }, by: \.topic)
        return sent.map { command in (command, (byTopic[command.replyTopic] ?? []).map { JSONValue.parse($0.payload) ?? .null }) }
    }

    public var answeredCount: Int { answered().filter { !$0.answers.isEmpty }.count }

    private static let replies = "\(Observer.replies)/burst/"

    /// Waits until `command` has an answer, and returns the first.
    public func answer(_ command: Sent, timeout: Duration = .seconds(20)) async throws -> JSONValue {
        try await waitUntil("an answer to \(command.topic) \(command.payload)", timeout: timeout) { !answers(command).isEmpty }
        return answers(command)[0]
    }
}
