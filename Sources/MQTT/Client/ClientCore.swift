import Logging
import Synchronization

/// The shared heart of an `MQTTClient`: state, streams and pending operations. It receives
/// libmosquitto's callbacks (on the network thread) and is read by the public API (any thread).
/// Sendable through `Mutex` and the (Sendable) stream continuations.
final class ClientCore: Sendable {
    let state = Mutex(ClientState())
    /// Signalled after every change of `state` that a caller may wait for, and by `pending`.
    let changes: StateChanges
    let pending: PendingOperations
    let stop = StopSignal()
    /// Messages handed to `messages` so far.
    let received = Atomic<Int>(0)
    let logger: Logger
    let protocolVersion: MQTTProtocolVersion

    let messages: AsyncStream<MQTTMessage>
    private let messagesContinuation: AsyncStream<MQTTMessage>.Continuation
    let events: AsyncStream<MQTTConnectionEvent>
    private let eventsContinuation: AsyncStream<MQTTConnectionEvent>.Continuation

    init(logger: Logger, protocolVersion: MQTTProtocolVersion) {
        self.logger = logger
        self.protocolVersion = protocolVersion
        changes = StateChanges()
        pending = PendingOperations(changes: changes)
        // Unbounded: a bridge must not silently drop device commands; the consumer is expected to keep up.
        (messages, messagesContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        (events, eventsContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Recorded by the network thread when a TCP/TLS connect attempt fails before any CONNACK.
    func connectAttemptFailed(_ text: String) {
        state.withLock { $0.lastError = text }
    }

    /// Called by the network thread once it has exited: nothing can arrive any more.
    func finish() {
        let wasConnected = state.withLock { state in
            let was = state.isConnected
            state.isConnected = false
            state.threadFinished = true
            state.streamsFinished = true
            return was
        }
        changes.signal()
        if wasConnected { eventsContinuation.yield(.disconnected(reason: "client stopped")) }
        pending.failAll([.publish, .subscribe, .unsubscribe], with: MQTTError(.disconnected, "the client was disconnected"))
        messagesContinuation.finish()
        eventsContinuation.finish()
    }

    /// For a client that never started a thread.
    func finishWithoutThread() {
        finish()
    }
}

extension ClientCore: MosquittoEventHandler {
    func mosquittoConnected(_ handle: MosquittoHandle, reasonCode: Int32) {
        guard reasonCode == 0 else {
            let text = MosquittoLibrary.connackText(reasonCode, protocolVersion: protocolVersion)
            let definitive = MosquittoLibrary.isDefinitiveRefusal(reasonCode, protocolVersion: protocolVersion)
            state.withLock { state in
                state.lastError = "connection refused: \(text)"
                if definitive && !state.hasEverConnected && state.firstRefusal == nil {
                    state.firstRefusal = MQTTError(.connectionRefused, "broker refused the connection: \(text) (reason \(reasonCode))")
                }
            }
            changes.signal()
            logger.warning("MQTT connection refused", metadata: ["reason": "\(text)", "code": "\(reasonCode)"])
            return
        }
        let (isReconnect, subscriptions, republish) = state.withLock { state in
            let isReconnect = state.hasEverConnected
            state.isConnected = true
            state.hasEverConnected = true
            state.connackSucceededSinceLastCheck = true
            state.lastError = nil
            if isReconnect { state.reconnectCount += 1 }
            // The first connect too: retained state published before it waited for it.
            let republish = state.takeRepublish()
            return (isReconnect, state.subscriptions, republish)
        }
        changes.signal()
        logger.info("MQTT connected", metadata: ["reconnect": "\(isReconnect)"])
        // Subscriptions first, so replies to re-published messages are not missed.
        for (filter, qos, options) in subscriptions {
            do { _ = try handle.subscribe(filter, qos: qos, options: options) } catch {
                logger.warning("MQTT re-subscribe failed", metadata: ["filter": "\(filter)", "error": "\(error)"])
            }
        }
        for (topic, payload) in republish {
            do {
                _ = try handle.publish(topic: topic, payload: payload, qos: .atLeastOnce, retain: true, properties: .init())
            } catch {
                logger.warning("MQTT re-publish failed", metadata: ["topic": "\(topic)", "error": "\(error)"])
            }
        }
        eventsContinuation.yield(.connected(reconnect: isReconnect))
    }

    func mosquittoDisconnected(_ handle: MosquittoHandle, rc: Int32) {
        let reason = rc == 0 ? "client disconnected" : MosquittoLibrary.errorText(rc)
        let wasConnected = state.withLock { state in
            let was = state.isConnected
            state.isConnected = false
            if rc != 0 { state.lastError = reason }
            return was
        }
        changes.signal()
        // QoS>0 publishes stay queued in libmosquitto and are retried; (un)subscribe acks will not come.
        pending.failAll([.subscribe, .unsubscribe], with: MQTTError(.disconnected, "connection lost: \(reason)"))
        if wasConnected {
            logger.info("MQTT disconnected", metadata: ["reason": "\(reason)"])
            eventsContinuation.yield(.disconnected(reason: reason))
        }
    }

    func mosquittoReceived(_ message: MQTTMessage) {
        received.add(1, ordering: .releasing)
        messagesContinuation.yield(message)
    }

    func mosquittoPublished(mid: Int32, reasonCode: Int32) {
        // MQTT 5 PUBACK/PUBREC reason codes >= 0x80 are failures (e.g. 0x87 not authorized).
        if reasonCode >= 0x80 {
            let text = MosquittoLibrary.connackText(reasonCode, protocolVersion: .v5)
            pending.complete(mid, with: .failure(MQTTError(.publishRefused, "broker refused the publish: \(text) (reason \(reasonCode))")))
        } else {
            pending.complete(mid, with: .success([]))
        }
    }

    func mosquittoSubscribed(mid: Int32, grantedQoS: [Int32]) {
        if !pending.complete(mid, with: .success(grantedQoS)), grantedQoS.contains(where: { $0 >= 0x80 }) {
            logger.warning("MQTT broker refused a re-subscription", metadata: ["granted": "\(grantedQoS)"])
        }
    }

    func mosquittoUnsubscribed(mid: Int32) {
        pending.complete(mid, with: .success([]))
    }
}
