#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Logging

/// An MQTT client over libmosquitto with its own network thread and automatic reconnects.
///
/// Subscriptions are remembered and renewed after every reconnect; retained state published with
/// `publishRetained` goes out whenever the client is connected, the latest of each topic again
/// after every reconnect.
public final class MQTTClient: Sendable {
    public let configuration: MQTTConfiguration
    private let core: ClientCore
    let handle: MosquittoHandle
    /// Sees every publish as it is asked for (topic, payload, retain), sent or queued alike.
    private let onPublish: (@Sendable (String, [UInt8], Bool) -> Void)?

    /// Validates the configuration and creates the libmosquitto handle. Does not connect.
    /// `onPublish` sees every message this client is asked to publish: the bridge's page mirrors
    /// its state from there. It runs on the publisher's thread: keep it short.
    public init(
        configuration: MQTTConfiguration, logger: Logger, onPublish: (@Sendable (String, [UInt8], Bool) -> Void)? = nil
    ) throws {
        try ConfigurationValidator.validate(configuration)
        self.configuration = configuration
        self.onPublish = onPublish
        var logger = logger
        logger[metadataKey: "mqtt.client"] = "\(configuration.clientID)"
        core = ClientCore(logger: logger, protocolVersion: configuration.protocolVersion)
        handle = try MosquittoHandle(
            clientID: configuration.clientID, protocolVersion: configuration.protocolVersion,
            cleanStart: configuration.sessionExpiry == nil, handler: core)
        if configuration.username != nil || configuration.password != nil {
            try handle.setCredentials(username: configuration.username, password: configuration.password)
        }
        if let tls = configuration.tls { try handle.setTLS(tls) }
        if let will = configuration.will { try handle.setWill(will) }
    }

    deinit {
        // The network thread (if any) holds its own references; it sends DISCONNECT and exits.
        core.stop.stop()
        let neverStarted = core.state.withLock { !$0.started && !$0.streamsFinished }
        if neverStarted { core.finishWithoutThread() }
    }

    /// Incoming messages on subscribed filters. Single consumer; finishes after `disconnect()`.
    public var messages: AsyncStream<MQTTMessage> { core.messages }

    /// How many messages `messages` has been handed so far: a consumer that has read this many
    /// has read everything the broker delivered until now.
    public var messagesReceived: Int { core.received.load(ordering: .acquiring) }

    /// Connection changes. Single consumer; finishes after `disconnect()`.
    public var connectionEvents: AsyncStream<MQTTConnectionEvent> { core.events }

    public var isConnected: Bool { core.state.withLock { $0.isConnected } }

    /// Successful reconnects, not counting the first connect.
    public var reconnectCount: Int { core.state.withLock { $0.reconnectCount } }

    /// Starts the network thread, which connects and reconnects forever. Idempotent; never throws.
    /// Does nothing after `disconnect()`.
    public func start() {
        let shouldStart = core.state.withLock { state in
            guard !state.started, !state.streamsFinished else { return false }
            state.started = true
            return true
        }
        guard shouldStart, !core.stop.isStopped else { return }
        let loop = NetworkLoop(handle: handle, core: core, configuration: configuration)
        startThread { loop.run() }
    }

    /// Waits until the broker has accepted the connection. Throws `.timeout` (with the last connect
    /// error) or `.disconnected` if the client is stopped meanwhile.
    public func waitUntilConnected(timeout: Duration) async throws {
        try await waitForConnection(timeout: timeout, failOnRefusal: false)
    }

    /// `start()` + `waitUntilConnected`, but a definitive refusal of the first attempt (bad credentials,
    /// not authorized) throws at once. On any error the client is stopped, as by `disconnect()`.
    public func connect(timeout: Duration) async throws {
        start()
        do {
            try await waitForConnection(timeout: timeout, failOnRefusal: true)
        } catch {
            await disconnect()
            throw error
        }
    }

    private func waitForConnection(timeout: Duration, failOnRefusal: Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        _ = await core.changes.wait(until: deadline) {
            core.state.withLock { $0.isConnected || (failOnRefusal && $0.firstRefusal != nil) || $0.streamsFinished }
        }
        try Task.checkCancellation()
        let (connected, refusal, finished, lastError) = core.state.withLock {
            ($0.isConnected, $0.firstRefusal, $0.streamsFinished, $0.lastError)
        }
        if connected { return }
        if failOnRefusal, let refusal { throw refusal }
        if finished { throw MQTTError(.disconnected, "the client was disconnected") }
        throw MQTTError(
            .timeout,
            "not connected to \(configuration.host):\(configuration.port) after \(timeout)" + (lastError.map { ": \($0)" } ?? ""))
    }

    /// Publishes a message.
    ///
    /// QoS 0 returns once libmosquitto has queued it and throws `.notConnected` when offline.
    /// QoS 1/2 returns after PUBACK/PUBCOMP; offline, libmosquitto queues it until the next connect.
    public func publish(
        _ topic: String,
        payload: [UInt8],
        qos: MQTTQoS = .atMostOnce,
        retain: Bool = false,
        properties: MQTTProperties = .init()
    ) async throws {
        if configuration.protocolVersion == .v311 && !properties.isEmpty {
            throw MQTTError(.invalidConfiguration, "MQTT 5 properties need protocolVersion .v5")
        }
        onPublish?(topic, payload, retain)
        if qos == .atMostOnce {
            try publishNow(topic, payload: payload, retain: retain, properties: properties)
        } else {
            _ = try await withCheckedThrowingContinuation { continuation in
                queueAcknowledged(topic, payload: payload, qos: qos, retain: retain, properties: properties,
                                  outcome: PendingOperations.resuming(continuation))
            }
        }
    }

    /// Makes `payload` the retained state of `topic` (QoS 1), and returns at once: it never waits
    /// for the broker, connected or not.
    ///
    /// Connected, it is handed to the network thread now. Offline, only the latest payload of each
    /// topic is kept (memory stays bounded however long the outage), and the connect sends them,
    /// in the order their topics were first published, so the broker gets the current state, not a
    /// backlog. After every reconnect the latest of each topic goes out again, for a broker that
    /// lost its retained messages. An empty payload clears the topic, at the next connect if
    /// offline, and is forgotten once sent. One topic, one publisher at a time: two callers racing
    /// on the same topic may reach the broker in the other order than they are remembered in.
    public func publishRetained(_ topic: String, payload: [UInt8]) {
        onPublish?(topic, payload, true)
        let connected = core.state.withLock { state in
            state.rememberPublish(topic, payload)
            return state.isConnected
        }
        guard connected else { return }
        do {
            _ = try handle.publish(topic: topic, payload: payload, qos: .atLeastOnce, retain: true, properties: .init())
        } catch {
            // Lost meanwhile: the connect that follows sends what is remembered.
            core.logger.debug("retained state kept for the next connect", metadata: ["topic": "\(topic)", "error": "\(error)"])
            return
        }
        if payload.isEmpty { core.state.withLock { $0.forgetClear(topic) } }
    }

    /// Queues a message and returns without waiting for its acknowledgement: this client's
    /// publishes go out in the order they were queued, so a caller whose messages must arrive in
    /// order need not wait for each one's PUBACK before it queues the next.
    ///
    /// `acknowledged` gets the outcome: at once for QoS 0 (an error when offline, as `publish`
    /// throws) and once the broker acknowledged QoS 1/2 (offline, libmosquitto queues it until the
    /// next connect). It runs on the network thread, or the caller's: keep it short.
    public func publish(
        _ topic: String,
        payload: [UInt8],
        qos: MQTTQoS,
        retain: Bool = false,
        properties: MQTTProperties = .init(),
        acknowledged: @escaping @Sendable (Result<Void, MQTTError>) -> Void
    ) {
        if configuration.protocolVersion == .v311 && !properties.isEmpty {
            return acknowledged(.failure(MQTTError(.invalidConfiguration, "MQTT 5 properties need protocolVersion .v5")))
        }
        onPublish?(topic, payload, retain)
        if qos == .atMostOnce {
            acknowledged(Result { () throws(MQTTError) in try publishNow(topic, payload: payload, retain: retain, properties: properties) })
        } else {
            queueAcknowledged(topic, payload: payload, qos: qos, retain: retain, properties: properties) { acknowledged($0.map { _ in }) }
        }
    }

    private func publishNow(_ topic: String, payload: [UInt8], retain: Bool, properties: MQTTProperties) throws(MQTTError) {
        guard isConnected else {
            throw MQTTError(.notConnected, "cannot publish to '\(topic)' with QoS 0: not connected")
        }
        _ = try handle.publish(topic: topic, payload: payload, qos: .atMostOnce, retain: retain, properties: properties)
    }

    private func queueAcknowledged(
        _ topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool, properties: MQTTProperties,
        outcome: @escaping PendingOperations.Outcome
    ) {
        // Unacknowledged once receiving stops: acknowledgements are no longer read, and
        // libmosquitto would hold back QoS 1 publishes beyond the broker's Receive Maximum.
        core.pending.registerPublish(outcome) { acknowledged throws(MQTTError) in
            try handle.publish(
                topic: topic, payload: payload, qos: acknowledged ? qos : .atMostOnce, retain: retain, properties: properties)
        }
    }

    /// Subscribes and remembers the filter (and its options) for every later reconnect. Returns after
    /// SUBACK; throws `.subscriptionRefused` if the broker refuses. When offline, or when the connection
    /// is lost before the SUBACK, it only remembers the filter and returns; the subscription is made
    /// on the next connect (a refusal then is only logged).
    public func subscribe(
        _ filter: String, qos: MQTTQoS = .atLeastOnce, options: MQTTSubscriptionOptions = .init()
    ) async throws {
        let connected = core.state.withLock { state in
            state.rememberSubscription(filter, qos: qos, options: options)
            return state.isConnected
        }
        // Offline it is made at the next connect: a SUBSCRIBE handed to libmosquitto while it is
        // still connecting may never be answered, and the caller would wait for good.
        guard connected else { return }
        let granted: [Int32]
        do {
            granted = try await withCheckedThrowingContinuation { continuation in
                core.pending.register(.subscribe, continuation) { () throws(MQTTError) in
                    try handle.subscribe(filter, qos: qos, options: options)
                }
            }
        } catch let error as MQTTError where error.code == .notConnected || error.code == .disconnected {
            // Remembered, and made at the next connect.
            return
        }
        if let code = granted.first, code >= 0x80 {
            core.state.withLock { $0.forgetSubscription(filter) }
            let text = MosquittoLibrary.connackText(code, protocolVersion: .v5)
            throw MQTTError(.subscriptionRefused, "broker refused subscription to '\(filter)': \(text) (\(code))")
        }
    }

    /// Unsubscribes and forgets the filter. When offline it only forgets it.
    public func unsubscribe(_ filter: String) async throws {
        let connected = core.state.withLock { state in
            state.forgetSubscription(filter)
            return state.isConnected
        }
        guard connected else { return }
        do {
            _ = try await withCheckedThrowingContinuation { continuation in
                core.pending.register(.unsubscribe, continuation) { () throws(MQTTError) in
                    try handle.unsubscribe(filter)
                }
            }
        } catch let error as MQTTError where error.code == .notConnected {
            return
        }
    }

    /// Reads nothing more from the broker, and so acknowledges nothing more: with a persistent
    /// session, whatever the broker sends from now on waits there for the next connection. For a
    /// consumer that must answer every message it acknowledged before it disconnects.
    ///
    /// Publishing goes on, at QoS 0 from the call on. The publishes already waiting for their
    /// acknowledgement get it first (reading goes on until then, a second at most); then the
    /// network thread does its last read (within one loop timeout, 100 ms) and this returns:
    /// `messagesReceived` is final.
    public func stopReceiving() async {
        core.pending.stopAcknowledgedPublishes()
        _ = await core.changes.wait(until: .now + .seconds(1)) { !core.pending.hasPublishWaiters }
        core.state.withLock { $0.receivingStopRequested = true }
        _ = await core.changes.wait(until: .now + .seconds(1)) {
            core.state.withLock { $0.receivingStopped || !$0.isConnected || $0.threadFinished }
        }
    }

    /// Sends a clean DISCONNECT (the broker discards the will), stops the network thread and
    /// finishes both streams. Idempotent.
    public func disconnect() async {
        core.stop.stop()
        let started = core.state.withLock { $0.started }
        guard started else {
            if !core.state.withLock({ $0.streamsFinished }) { core.finishWithoutThread() }
            return
        }
        // The thread notices within one loop timeout (100 ms) and drains the DISCONNECT for at most 2 s;
        // a blocking reconnect to an unreachable host may take longer, so give up waiting after 10 s.
        _ = await core.changes.wait(until: .now + .seconds(10)) { core.state.withLock(\.threadFinished) }
    }
}
