import BridgeTestSupport
import MQTT
import MQTTTestSupport
import Synchronization

/// The benchmark's MQTT 5 client (the project's `MQTTClient`, TCP_NODELAY on its socket). Every
/// awaited topic has a slot that the message stream fills the moment a message arrives, with the
/// time it arrived: no polling, so a publish → answer time is what the network, the broker and
/// the bridge took. (`Observer.command` polls every 10 ms: right for tests, too coarse here.)
final class MeasuringClient: Sendable {
    struct Arrival: Sendable {
        let instant: ContinuousClock.Instant
        let payload: [UInt8]
    }

    private enum Slot {
        case expected(deadline: ContinuousClock.Instant, waiter: CheckedContinuation<Arrival, any Error>?)
        case arrived(Arrival)
    }

    private let client: MQTTClient
    private let slots = Mutex<[String: Slot]>([:])
    /// Topics whose every message is kept, with its arrival, while `recording` runs.
    private let recordings = Mutex<[String: [Arrival]]>([:])
    private let finished = Atomic<Bool>(false)

    private init(client: MQTTClient) {
        self.client = client
    }

    /// Connects a client to `broker` for the length of `body`, then disconnects it.
    static func connected<T: Sendable>(to broker: TestBroker, _ body: (MeasuringClient) async throws -> T) async throws -> T {
        let client = try MQTTClient(
            configuration: MQTTConfiguration(clientID: uniqueClientID("bench"), host: broker.host, port: broker.port),
            logger: testLogger("bench-client"))
        try await client.connect(timeout: .seconds(10))
        let measuring = MeasuringClient(client: client)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { await measuring.recordArrivals() }
            tasks.addTask { await measuring.expireOverdueSlots() }
            do {
                let result = try await body(measuring)
                await measuring.stop()
                try await tasks.waitForAll()
                return result
            } catch {
                await measuring.stop()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }

    func subscribe(_ filter: String) async throws {
        try await client.subscribe(filter, qos: .atLeastOnce)
    }

    /// Publishes `payload` to `topic` and waits for the first message on `replyTopic`: the time
    /// from `start` (by default: just before the publish) to that message's arrival, and its payload.
    func roundTrip(
        publishing payload: String, to topic: String, answeredOn replyTopic: String,
        properties: MQTTProperties = .init(), timeout: Duration, startingAt start: ContinuousClock.Instant = .now
    ) async throws -> (elapsed: Duration, payload: [UInt8]) {
        slots.withLock { $0[replyTopic] = .expected(deadline: start + timeout, waiter: nil) }
        try await client.publish(topic, payload: Array(payload.utf8), qos: .atLeastOnce, properties: properties)
        let arrival = try await arrival(on: replyTopic)
        return (arrival.instant - start, arrival.payload)
    }

    /// Subscribes to `topic` for the length of `body` and returns, beside its result, every
    /// message that arrived on it meanwhile (the retained one among them), oldest first.
    func recording<T>(_ topic: String, _ body: () async throws -> T) async throws -> (T, [Arrival]) {
        recordings.withLock { $0[topic] = [] }
        defer { _ = recordings.withLock { $0.removeValue(forKey: topic) } }
        try await client.subscribe(topic, qos: .atLeastOnce)
        let result = try await body()
        try await client.unsubscribe(topic)
        return (result, recordings.withLock { $0[topic] ?? [] })
    }

    /// The first message on each of `topics` once `action` has run (a bridge started, say), by
    /// topic, with the instant each arrived. Subscribe to the topics first.
    func firstArrivals(on topics: [String], timeout: Duration, after action: () throws -> Void) async throws -> [String: Arrival] {
        let deadline = ContinuousClock.now + timeout
        slots.withLock { slots in
            for topic in topics { slots[topic] = .expected(deadline: deadline, waiter: nil) }
        }
        try action()
        var arrivals: [String: Arrival] = [:]
        for topic in topics { arrivals[topic] = try await arrival(on: topic) }
        return arrivals
    }

    private func arrival(on topic: String) async throws -> Arrival {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Arrival, any Error>? = slots.withLock { slots in
                switch slots[topic] {
                case .arrived(let arrival):
                    slots[topic] = nil
                    return .success(arrival)
                case .expected(let deadline, nil):
                    slots[topic] = .expected(deadline: deadline, waiter: continuation)
                    return nil
                default:
                    return .failure(TestSupportError("no message expected on \(topic), or it expired"))
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    private func recordArrivals() async {
        for await message in client.messages {
            let arrival = Arrival(instant: .now, payload: message.payload)
            recordings.withLock { $0[message.topic]?.append(arrival) }
            let waiter: CheckedContinuation<Arrival, any Error>? = slots.withLock { slots in
                guard case .expected(_, let waiter) = slots[message.topic] else { return nil }  // late or unasked: ignored
                if waiter != nil { slots[message.topic] = nil } else { slots[message.topic] = .arrived(arrival) }
                return waiter
            }
            waiter?.resume(returning: arrival)
        }
        failAll(TestSupportError("the benchmark client disconnected"))
    }

    /// Fails every waiter past its deadline, ten times a second, until the client stops.
    private func expireOverdueSlots() async {
        while !finished.load(ordering: .acquiring) {
            try? await Task.sleep(for: .milliseconds(100))
            let now = ContinuousClock.now
            let overdue: [(String, CheckedContinuation<Arrival, any Error>?)] = slots.withLock { slots in
                var overdue: [(String, CheckedContinuation<Arrival, any Error>?)] = []
                for (topic, slot) in slots {
                    if case .expected(let deadline, let waiter) = slot, deadline < now { overdue.append((topic, waiter)) }
                }
                for (topic, _) in overdue { slots[topic] = nil }
                return overdue
            }
            for (topic, waiter) in overdue { waiter?.resume(throwing: TestSupportError("no message on \(topic) in time")) }
        }
    }

    private func failAll(_ error: TestSupportError) {
        let waiters = slots.withLock { slots in
            defer { slots = [:] }
            return slots.values.compactMap { slot -> CheckedContinuation<Arrival, any Error>? in
                if case .expected(_, let waiter) = slot { return waiter }
                return nil
            }
        }
        for waiter in waiters { waiter.resume(throwing: error) }
    }

    private func stop() async {
        finished.store(true, ordering: .releasing)
        await client.disconnect()
    }
}
