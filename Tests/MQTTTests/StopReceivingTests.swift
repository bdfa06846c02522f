import MQTT
import MQTTTestSupport
import Testing

/// `stopReceiving()`: what a client acknowledged it has been handed; what comes after it never
/// acknowledged, so its persistent session keeps it for the next connection; it still publishes,
/// and it still ends with a DISCONNECT. (Whether unread bytes make the close a reset that loses
/// the DISCONNECT shows only on a busy broker: `ShutdownBurstTests` is where that was caught.)
@Suite struct StopReceivingTests {
    @Test func whatArrivesAfterwardsWaitsInTheSessionAndPublishingGoesOn() async throws {
        try await withTestBroker { broker in
            let id = uniqueID("stopping")
            let persistent: (inout MQTTConfiguration) -> Void = { configuration in
                configuration.clientID = id
                configuration.sessionExpiry = 300
            }
            var stopping = try makeClient(broker, id, configure: persistent)
            try await stopping.connect(timeout: .seconds(10))
            let received = MessageRecorder(stopping.messages)
            try await stopping.subscribe("orders/#", qos: .atLeastOnce)
            let sender = try await connectedClient(broker, "sender")
            let echoes = MessageRecorder(sender.messages)
            try await sender.subscribe("echo", qos: .atLeastOnce)

            try await sender.publish("orders/1", payload: "1".bytes, qos: .atLeastOnce)
            _ = try await received.first(topic: "orders/1")
            await stopping.stopReceiving()
            #expect(stopping.messagesReceived == 1)
            for order in 2...30 {
                try await sender.publish("orders/\(order)", payload: "\(order)".bytes, qos: .atLeastOnce)
            }
            // More than the broker's Receive Maximum (20) unacknowledged, and the replies still go out.
            try await stopping.publish("echo", payload: "still here".bytes, qos: .atLeastOnce)
            #expect(try await echoes.first(topic: "echo").payloadString == "still here")
            try await Task.sleep(for: .milliseconds(200))
            #expect(stopping.messagesReceived == 1, "read after it stopped receiving")
            await stopping.disconnect()
            #expect(try await broker.logAfterConnectionEnd(of: id).contains("Received DISCONNECT from \(id)"), "no clean DISCONNECT")

            stopping = try makeClient(broker, id, configure: persistent)
            let resumed = MessageRecorder(stopping.messages)
            try await stopping.connect(timeout: .seconds(10))
            try await waitUntil("the 29 orders from the session") { resumed.messages.count >= 29 }
            #expect(Set(resumed.messages.map(\.topic)) == Set((2...30).map { "orders/\($0)" }))
            await stopping.disconnect()
            await sender.disconnect()
        }
    }
}
