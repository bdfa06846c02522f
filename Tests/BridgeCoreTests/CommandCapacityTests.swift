import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import Testing

@Suite struct CommandCapacityTests {
    static let capacity = 64
    static let commands = 3_000

    /// A client that keeps exactly as many commands in flight as an integration lets wait,
    /// sending the next the moment it reads an answer, is never refused as busy: a command's
    /// place is free once it is carried out, not once the broker has acknowledged its answer
    /// (the next command can reach the bridge before that acknowledgement does).
    @Test func aClientKeepingTheCapacityInFlightIsNeverRefused() async throws {
        // As `broker-config/mosquitto.conf`: without it, answers in a burst wait on Nagle's algorithm.
        let broker = try await TestBroker(config: "set_tcp_nodelay true")
        defer { broker.stop() }
        try await withRunningBridge(broker: broker, integrations: [EchoIntegration()]) { _ in
            let observer = try await Observer(broker, subscribe: ["home/echo/availability"])
            defer { Task { await observer.disconnect() } }
            _ = try await observer.latest("home/echo/availability")
            let client = try MQTTClient(
                configuration: MQTTConfiguration(clientID: uniqueClientID("capacity"), host: broker.host, port: broker.port),
                logger: testLogger("capacity-client"))
            try await client.connect(timeout: .seconds(10))
            try await client.subscribe("me/replies", qos: .atMostOnce)
            // QoS 0: sent at once, without waiting for the broker's acknowledgement.
            let send = { @Sendable in
                try await client.publish("home/echo/echo", payload: Array("x".utf8), properties: MQTTProperties(responseTopic: "me/replies"))
            }
            for _ in 0..<Self.capacity { try await send() }
            var sent = Self.capacity, answered = 0, refused: [String] = []
            for await reply in client.messages where reply.topic == "me/replies" {
                answered += 1
                let answer = JSONValue.parse(reply.payload)
                if answer?["status"] != "ok" { refused.append(reply.payloadString ?? "") }
                if sent < Self.commands {
                    try await send()
                    sent += 1
                }
                if answered == Self.commands { break }
            }
            await client.disconnect()
            #expect(answered == Self.commands)
            #expect(refused.isEmpty, "\(refused.count) refused: \(refused.first ?? "")")
        }
    }
}
