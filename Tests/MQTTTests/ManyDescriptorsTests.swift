import Foundation
import MQTT
import MQTTTestSupport
import Testing

/// A busy process has more than 1024 descriptors open, and select(2), which `mosquitto_loop`
/// waits with, cannot watch one numbered above that: such a client never sent its CONNECT.
@Suite struct ManyDescriptorsTests {
    @Test func clientsWithSocketsNumberedAbove1024ConnectAndExchangeMessages() async throws {
        try await withTestBroker { broker in
            // Hold the low descriptors, so that the clients' sockets are numbered above 1024.
            var held: [Int32] = []
            while (held.last ?? 0) < 1100 {
                let descriptor = open("/dev/null", O_RDONLY)
                guard descriptor >= 0 else { throw TestSupportError("open /dev/null failed: \(errno)") }
                held.append(descriptor)
            }
            defer { for descriptor in held { close(descriptor) } }
            let subscriber = try await connectedClient(broker, "high-sub")
            let publisher = try await connectedClient(broker, "high-pub")
            let recorder = MessageRecorder(subscriber.messages)
            try await subscriber.subscribe("home/lamp/state", qos: .atLeastOnce)
            try await publisher.publish("home/lamp/state", payload: "on".bytes, qos: .atLeastOnce)
            let message = try await recorder.first(topic: "home/lamp/state")
            #expect(message.payloadString == "on")
            await publisher.disconnect()
            await subscriber.disconnect()
        }
    }
}
