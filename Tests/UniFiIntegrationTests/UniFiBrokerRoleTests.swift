import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import Testing
import UniFiSimulator
import UniFiTestSupport

/// broker-config/acl enforced by a real mosquitto: a child's watch cannot switch its own downtime.
@Suite struct UniFiBrokerRoleTests {
    @Test func theWatchCannotSwitchRulesHomeAssistantCan() async throws {
        let broker = try await TestBroker.withRoles()
        defer { broker.stop() }
        try await UniFiFixture.withSimulator(broker: broker) { fixture in
            let yaml = "mqtt:\n  username: bridge\n  password: bridge-password\n" + fixture.yaml()
            try await fixture.runBridge(yaml: yaml, observer: { $0.username = "homeassistant"; $0.password = "homeassistant-password" }) { observer in
                _ = try await observer.latest("home/unifi/rules") { $0["downtime-emma"] != nil }
                let watch = try await Observer(broker, subscribe: ["home/#"]) { $0.username = "watch"; $0.password = "watch-password" }
                try? await watch.send("home/unifi/rule/downtime-emma/set", "OFF")
                try? await watch.send("home/unifi/refresh", "")
                // Home Assistant's command after the watch's: once it is answered, the watch's would have been too.
                #expect(try await observer.command("home/unifi/rule/downtime-tablet/set", "ON")["status"] == "ok")
                #expect(fixture.simulator.requestCount(method: "PUT", pathContaining: UniFiSimulatorFixtures.downtimeEmmaID) == 0)
                #expect(!watch.recorder.messages.contains { $0.topic.hasPrefix("home/unifi/rule/downtime-emma/set/response") })
                await watch.disconnect()
            }
        }
    }
}
