import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Logging
import MQTT
import Synchronization

/// One short MQTT connection of a companion command: ask the bridge something and wait for the
/// answer, or read the retained state. Every wait ends at a deadline.
final class CompanionSession: Sendable {
    let endpoint: CompanionEndpoint
    /// The whole budget (`--timeout`), and when it runs out: connecting and waiting share it.
    let timeout: Duration
    let deadline: ContinuousClock.Instant
    private let client: MQTTClient
    private let inbox = Inbox()
    /// Signalled at every message received and at a failed publish: the waits below look again then.
    private let changes = Wakeup()

    private init(endpoint: CompanionEndpoint, client: MQTTClient, timeout: Duration) {
        self.endpoint = endpoint
        self.timeout = timeout
        deadline = .now + timeout
        self.client = client
    }

    var topics: BridgeTopics { endpoint.topics }

    /// Connects, runs `body` (all within `timeout`), and disconnects cleanly whatever `body` does.
    static func with<T>(
        _ endpoint: CompanionEndpoint, timeout: Duration,
        _ body: (CompanionSession) async throws(CompanionFailure) -> T
    ) async throws(CompanionFailure) -> T {
        let session = try await connect(endpoint, timeout: timeout)
        // The inbox fills beside `body`; `close()` ends the message stream, and so that task.
        let outcome = await withTaskGroup(of: Void.self) { group -> Result<T, CompanionFailure> in
            group.addTask { await session.collectMessages() }
            let outcome: Result<T, CompanionFailure>
            do throws(CompanionFailure) {
                outcome = .success(try await body(session))
            } catch {
                outcome = .failure(error)
            }
            await session.close()
            return outcome
        }
        return try outcome.get()
    }

    private func collectMessages() async {
        for await message in client.messages {
            inbox.append(message)
            changes.signal()
        }
    }

    private static func connect(_ endpoint: CompanionEndpoint, timeout: Duration) async throws(CompanionFailure) -> CompanionSession {
        var logger = Logger(label: "home2mqtt")
        logger.logLevel = .critical
        let client: MQTTClient
        do {
            client = try MQTTClient(configuration: endpoint.mqtt, logger: logger)
        } catch {
            throw .configuration(Self.describe(error))
        }
        let session = CompanionSession(endpoint: endpoint, client: client, timeout: timeout)
        do {
            try await client.connect(timeout: timeout)
        } catch {
            await session.close()
            throw .unreachable("cannot connect to the MQTT broker at \(endpoint.brokerAddress): \(Self.describe(error))")
        }
        return session
    }

    func close() async {
        await client.disconnect()
    }

    // MARK: - Commands

    /// Sends a command with an MQTT 5 response topic of our own (under `<base>/replies/`, which
    /// the broker ACL lets readers of `<base>/#` read) and correlation data, and returns the
    /// bridge's answer. Fails early when the bridge's retained state says it is offline.
    func request(_ topic: String, payload: String) async throws(CompanionFailure) -> JSONValue {
        let token = UUID().uuidString.lowercased()
        let replyTopic = "\(topics.replies)/\(endpoint.mqtt.clientID)/\(token)"
        let correlation = Array(token.utf8)
        // The bridge state first: its retained value arrives before the second SUBACK.
        try await subscribe(topics.state, qos: .atLeastOnce)
        try await subscribe(replyTopic, qos: .atLeastOnce)
        try checkBridgeOnline()

        let published = PublishOutcome()
        let client = client, changes = changes
        let properties = MQTTProperties(responseTopic: replyTopic, correlationData: correlation)
        // The publish (its PUBACK) runs beside the wait for the answer, which may come first.
        let answer = await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await client.publish(topic, payload: Array(payload.utf8), qos: .atLeastOnce, properties: properties)
                } catch {
                    published.fail(error as? MQTTError ?? MQTTError(.library, "\(error)"))
                    changes.signal()
                }
            }
            defer { group.cancelAll() }
            return await awaitAnswer(on: replyTopic, correlation: correlation, to: topic, published: published)
        }
        return try answer.get()
    }

    /// As a `Result`, not a typed throw, across the task group: a typed-throws async closure in
    /// a task group was miscompiled in release builds (Swift 6.3.1; docs/measurements.md).
    private func awaitAnswer(
        on replyTopic: String, correlation: [UInt8], to topic: String, published: PublishOutcome
    ) async -> Result<JSONValue, CompanionFailure> {
        do throws(CompanionFailure) {
            return .success(try await pollForAnswer(on: replyTopic, correlation: correlation, to: topic, published: published))
        } catch {
            return .failure(error)
        }
    }

    private func pollForAnswer(
        on replyTopic: String, correlation: [UInt8], to topic: String, published: PublishOutcome
    ) async throws(CompanionFailure) -> JSONValue {
        while true {
            if let answer = inbox.first(where: { $0.topic == replyTopic && $0.properties.correlationData == correlation }) {
                guard let response = JSONValue.parse(answer.payload), response["status"] != nil else {
                    throw .refused("the bridge answered something that is not a command response: \(answer.payloadString ?? "\(answer.payload.count) bytes")")
                }
                return response
            }
            if let error = published.error {
                throw .unreachable("the command to \(topic) was not delivered: \(Self.describe(error))")
            }
            try checkBridgeOnline()
            let now = ContinuousClock.now
            if now >= deadline {
                throw .unreachable(noAnswerMessage)
            }
            await changes.wait(atMost: deadline - now)
        }
    }

    private func checkBridgeOnline() throws(CompanionFailure) {
        if bridgeState == BridgeTopics.offline {
            throw .unreachable("the bridge is offline (\(topics.state) says so)")
        }
    }

    /// The latest `bridge/state` received, retained or live.
    private var bridgeState: String? {
        inbox.last(where: { $0.topic == topics.state })?.payloadString
    }

    private var noAnswerMessage: String {
        let seconds = TextFormat.duration(timeout)
        if bridgeState == nil {
            return "no answer within \(seconds), and nothing on \(topics.state): is the bridge running, with base topic '\(topics.base)'?"
        }
        return "no answer from the bridge within \(seconds) (\(topics.state) says \(bridgeState ?? "?"))"
    }

    // MARK: - State

    /// The retained messages below the base topic, by topic. Stops once the broker has been
    /// quiet for `quiet` after `bridge/state` arrived (or for `settle` without it), or at the deadline.
    func retainedState(
        quiet: Duration = .milliseconds(300), settle: Duration = .seconds(1)
    ) async throws(CompanionFailure) -> [String: MQTTMessage] {
        // QoS 0: retained messages then bypass the broker's in-flight limit and arrive at once.
        try await subscribe("\(topics.base)/#", qos: .atMostOnce)
        let subscribed = ContinuousClock.now
        while ContinuousClock.now < deadline {
            let now = ContinuousClock.now
            let stateSeen = inbox.first(where: { $0.retain && $0.topic == topics.state }) != nil
            let quietSince = inbox.lastArrival ?? subscribed
            if now - quietSince >= quiet, stateSeen || now - subscribed >= settle { break }
            // Unless another message comes first, the state is complete once it has been quiet
            // long enough (and, without bridge/state, once the settling time has passed).
            let complete = max(quietSince + quiet, stateSeen ? now : subscribed + settle)
            await changes.wait(atMost: min(complete, deadline) - now)
        }
        var state: [String: MQTTMessage] = [:]
        for message in inbox.messages where message.retain { state[message.topic] = message }
        return state
    }

    // MARK: -

    private func subscribe(_ filter: String, qos: MQTTQoS) async throws(CompanionFailure) {
        do {
            try await client.subscribe(filter, qos: qos)
        } catch {
            throw .unreachable("cannot subscribe to \(filter): \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? MQTTError)?.message ?? "\(error)"
    }
}

/// Whether the command's publish failed (it runs beside the wait for the answer).
private final class PublishOutcome: Sendable {
    private let failure = Mutex<MQTTError?>(nil)

    func fail(_ error: MQTTError) { failure.withLock { $0 = error } }
    var error: MQTTError? { failure.withLock { $0 } }
}

/// Everything the session received, in order, with the time of the last arrival.
private final class Inbox: Sendable {
    private let state = Mutex<(messages: [MQTTMessage], lastArrival: ContinuousClock.Instant?)>(([], nil))

    func append(_ message: MQTTMessage) {
        state.withLock {
            $0.messages.append(message)
            $0.lastArrival = .now
        }
    }

    var messages: [MQTTMessage] { state.withLock { $0.messages } }
    var lastArrival: ContinuousClock.Instant? { state.withLock { $0.lastArrival } }

    func first(where predicate: (MQTTMessage) -> Bool) -> MQTTMessage? {
        state.withLock { $0.messages.first(where: predicate) }
    }

    func last(where predicate: (MQTTMessage) -> Bool) -> MQTTMessage? {
        state.withLock { $0.messages.last(where: predicate) }
    }
}
