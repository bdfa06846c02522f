import MQTT
import MQTTTestSupport
import Testing

@Suite("publish and subscribe against a real mosquitto")
struct PublishSubscribeTests {
    @Test("round trip", arguments: [MQTTQoS.atMostOnce, .atLeastOnce, .exactlyOnce])
    func roundTrip(qos: MQTTQoS) async throws {
        try await withTestBroker { broker in
            let subscriber = try await connectedClient(broker, "sub")
            let publisher = try await connectedClient(broker, "pub")
            let recorder = MessageRecorder(subscriber.messages)
            try await subscriber.subscribe("home/lamp/state", qos: qos)
            try await publisher.publish("home/lamp/state", payload: "on".bytes, qos: qos)
            let message = try await recorder.first(topic: "home/lamp/state")
            #expect(message.payloadString == "on")
            #expect(message.qos == qos)
            #expect(message.retain == false)
            await publisher.disconnect()
            await subscriber.disconnect()
        }
    }

    @Test("a late subscriber gets the retained message")
    func retained() async throws {
        try await withTestBroker { broker in
            let publisher = try await connectedClient(broker, "pub")
            try await publisher.publish("home/oven/state", payload: "{\"on\":true}".bytes, qos: .atLeastOnce, retain: true)
            let subscriber = try await connectedClient(broker, "late")
            let recorder = MessageRecorder(subscriber.messages)
            try await subscriber.subscribe("home/oven/state")
            let message = try await recorder.first(topic: "home/oven/state")
            #expect(message.retain)
            #expect(message.payloadString == "{\"on\":true}")
            await publisher.disconnect()
            await subscriber.disconnect()
        }
    }

    @Test("wildcard filters + and #")
    func wildcards() async throws {
        try await withTestBroker { broker in
            let subscriber = try await connectedClient(broker, "wild")
            let publisher = try await connectedClient(broker, "pub")
            let recorder = MessageRecorder(subscriber.messages)
            try await subscriber.subscribe("a/+/c")
            try await subscriber.subscribe("x/#")
            for topic in ["a/b/c", "a/b/d", "a/b/c/d", "x", "x/y/z"] {
                try await publisher.publish(topic, payload: topic.bytes, qos: .atLeastOnce)
            }
            // A marker through the same publisher: everything before it has been routed.
            try await publisher.publish("x/marker", payload: [], qos: .atLeastOnce)
            _ = try await recorder.first(topic: "x/marker")
            #expect(Set(recorder.messages.map(\.topic)) == ["a/b/c", "x", "x/y/z", "x/marker"])
            #expect(recorder.messages.first { $0.topic == "x/y/z" }?.payloadString == "x/y/z")
            await publisher.disconnect()
            await subscriber.disconnect()
        }
    }

    @Test("MQTT 5 properties arrive intact")
    func properties() async throws {
        try await withTestBroker { broker in
            let subscriber = try await connectedClient(broker, "sub5")
            let publisher = try await connectedClient(broker, "pub5")
            let recorder = MessageRecorder(subscriber.messages)
            try await subscriber.subscribe("rpc/request")
            let sent = MQTTProperties(
                responseTopic: "rpc/response/42", correlationData: [0, 1, 2, 0xFF], messageExpiryInterval: 120,
                contentType: "application/json")
            try await publisher.publish("rpc/request", payload: [0xC3, 0x28], qos: .atLeastOnce, properties: sent)
            let message = try await recorder.first(topic: "rpc/request")
            #expect(message.properties.responseTopic == "rpc/response/42")
            #expect(message.properties.correlationData == [0, 1, 2, 0xFF])
            #expect(message.properties.contentType == "application/json")
            let expiry = try #require(message.properties.messageExpiryInterval)
            #expect(expiry <= 120 && expiry >= 110)
            #expect(message.payload == [0xC3, 0x28])
            #expect(message.payloadString == nil, "invalid UTF-8 gives nil")
            await publisher.disconnect()
            await subscriber.disconnect()
        }
    }

    @Test("MQTT 3.1.1 works and rejects properties")
    func v311() async throws {
        try await withTestBroker { broker in
            let client = try await connectedClient(broker, "v311") { $0.protocolVersion = .v311 }
            let recorder = MessageRecorder(client.messages)
            try await client.subscribe("v3/t")
            try await client.publish("v3/t", payload: "hi".bytes, qos: .atLeastOnce)
            #expect(try await recorder.first(topic: "v3/t").payloadString == "hi")
            await #expect(throws: MQTTError.self) {
                try await client.publish("v3/t", payload: [], properties: MQTTProperties(contentType: "text/plain"))
            }
            await client.disconnect()
        }
    }

    @Test("unsubscribe stops delivery")
    func unsubscribe() async throws {
        try await withTestBroker { broker in
            let client = try await connectedClient(broker, "unsub")
            let recorder = MessageRecorder(client.messages)
            try await client.subscribe("u/#")
            try await client.publish("u/1", payload: [], qos: .atLeastOnce)
            _ = try await recorder.first(topic: "u/1")
            try await client.unsubscribe("u/#")
            try await client.subscribe("marker")
            try await client.publish("u/2", payload: [], qos: .atLeastOnce)
            try await client.publish("marker", payload: [], qos: .atLeastOnce)
            _ = try await recorder.first(topic: "marker")
            #expect(!recorder.messages.contains { $0.topic == "u/2" })
            await client.disconnect()
        }
    }
}
