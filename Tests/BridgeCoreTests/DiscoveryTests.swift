import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import Testing

@Suite struct DiscoveryTests {
    @Test func configsCarryDeviceOriginUniqueIDAndAvailability() {
        let config = DiscoveryConfig(
            topics: DiscoveryTopics(prefix: "homeassistant", base: "home"),
            bridgeTopics: BridgeTopics(base: "home"), version: "1.2.3"
        )
        let entity = DiscoveryEntity(
            component: "switch", objectID: "pihole_main_blocking", name: "Blocking",
            device: DiscoveryDevice(identifier: "home_pihole_main", name: "Pi-hole main", model: "Pi-hole v6", manufacturer: "Pi-hole"),
            availabilityTopics: ["home/pihole/main/availability"], options: ["command_topic": "home/pihole/main/blocking/set"]
        )
        let message = config.message(for: entity)
        #expect(message.topic == "homeassistant/switch/home2mqtt_home/pihole_main_blocking/config")
        #expect(message.payload["unique_id"] == "home2mqtt_home_pihole_main_blocking")
        #expect(message.payload["availability_mode"] == "all")
        #expect(message.payload["availability"] == [["topic": "home/bridge/state"], ["topic": "home/pihole/main/availability"]])
        #expect(message.payload["origin"]?["name"] == "home2mqtt")
        #expect(message.payload["device"]?["via_device"] == "home2mqtt_home")
        #expect(message.payload["command_topic"] == "home/pihole/main/blocking/set")
        #expect(config.message(for: config.bridgeEntity).payload["device_class"] == "connectivity")
    }

    @Test func publishesRepublishesAndClearsStaleConfigs() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let observer = try await Observer(broker, subscribe: ["homeassistant/#"])
        defer { Task { await observer.disconnect() } }
        let stale = "homeassistant/switch/home2mqtt_home/echo_gone/config"
        try await observer.send(stale, "{\"name\":\"gone\"}", retain: true)
        let current = "homeassistant/switch/home2mqtt_home/echo_thing/config"
        let bridgeSensor = "homeassistant/binary_sensor/home2mqtt_home/bridge_connection/config"

        try await withRunningBridge(broker: broker, integrations: [EchoIntegration(entityIDs: ["thing"])]) { _ in
            let config = try await observer.recorder.first(topic: current)
            #expect(JSONValue.parse(config.payload)?["availability_mode"] == "all")
            _ = try await observer.recorder.first(topic: bridgeSensor)
            _ = try await observer.recorder.first(timeout: .seconds(5)) { $0.topic == stale && $0.payload.isEmpty }

            let before = observer.recorder.messages.filter { $0.topic == current }.count
            try await observer.send("homeassistant/status", "online")
            try await waitUntil("configs republished") {
                observer.recorder.messages.filter { $0.topic == current }.count > before
            }
        }
        // The stale config is gone from the broker; the current one stays retained.
        let late = try await Observer(broker, subscribe: ["homeassistant/#"])
        defer { Task { await late.disconnect() } }
        let retained = try await late.recorder.first(topic: current)
        #expect(retained.retain)
        #expect(!late.recorder.messages.contains { $0.topic == stale })
    }
}
