import Foundation
import MQTT
import MQTTTestSupport
import Synchronization
import Testing

@Suite("a publish queued without waiting for its acknowledgement")
struct QueuedPublishTests {
    /// The bridge's answers rely on both: a lane's next command starts once its answer is queued.
    @Test("arrives in the order queued, and is acknowledged only once the broker has it")
    func arrivesInOrderAndIsAcknowledgedAfterTheBroker() async throws {
        try await withTestBroker { broker in
            let subscriber = try await connectedClient(broker, "sub")
            let publisher = try await connectedClient(broker, "pub")
            let recorder = MessageRecorder(subscriber.messages)
            try await subscriber.subscribe("queue/#", qos: .atLeastOnce)
            let acknowledged = Mutex<[Int]>([])
            let pid = try #require(broker.pid)
            kill(pid, SIGSTOP)  // a broker that takes its time: nothing is acknowledged meanwhile
            for number in 0..<50 {
                publisher.publish("queue/\(number % 3)", payload: "\(number)".bytes, qos: .atLeastOnce) { outcome in
                    if case .success = outcome { acknowledged.withLock { $0.append(number) } }
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            let beforeTheBroker = acknowledged.withLock { $0 }
            kill(pid, SIGCONT)
            #expect(beforeTheBroker.isEmpty)
            try await waitUntil("50 messages") { recorder.messages.count >= 50 }
            #expect(recorder.messages.map(\.payloadString) == (0..<50).map(String.init))
            try await waitUntil("50 acknowledgements") { acknowledged.withLock { $0.count } == 50 }
            #expect(acknowledged.withLock { $0 } == Array(0..<50))
            await publisher.disconnect()
            await subscriber.disconnect()
        }
    }

    @Test("at QoS 0 offline, or with properties over MQTT 3.1.1, is refused at once")
    func refusedAtOnce() async throws {
        try await withTestBroker { broker in
            let offline = try makeClient(broker, "offline")
            let refusal = Mutex<MQTTError?>(nil)
            offline.publish("queue/x", payload: [], qos: .atMostOnce) { outcome in
                if case .failure(let error) = outcome { refusal.withLock { $0 = error } }
            }
            #expect(refusal.withLock { $0 }?.code == .notConnected)

            let v311 = try makeClient(broker, "v311") { $0.protocolVersion = .v311 }
            refusal.withLock { $0 = nil }
            v311.publish("queue/x", payload: [], qos: .atLeastOnce, properties: MQTTProperties(contentType: "text/plain")) { outcome in
                if case .failure(let error) = outcome { refusal.withLock { $0 = error } }
            }
            #expect(refusal.withLock { $0 }?.code == .invalidConfiguration)
        }
    }
}
