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

    /// Voucher codes are credentials: the watch can neither make nor revoke vouchers, nor read a
    /// code anywhere (answers, the companion's replies, the latest code); it still sees the list.
    @Test func theWatchCannotMakeOrReadVouchers() async throws {
        let broker = try await TestBroker.withRoles()
        defer { broker.stop() }
        try await UniFiFixture.withSimulator(broker: broker) { fixture in
            let yaml = "mqtt:\n  username: bridge\n  password: bridge-password\n" + fixture.yaml()
            try await fixture.runBridge(yaml: yaml, observer: { $0.username = "homeassistant"; $0.password = "homeassistant-password" }) { observer in
                _ = try await observer.latest("home/unifi/controller/home/vouchers")
                let watch = try await Observer(broker, subscribe: ["home/#"]) { $0.username = "watch"; $0.password = "watch-password" }
                for topic in [
                    "home/unifi/voucher/create", "home/unifi/controller/home/voucher/create", "home/unifi/controller/home/voucher/preset/1440",
                ] {
                    try? await watch.send(topic, #"{"minutes":60}"#)
                }
                try? await watch.send("home/unifi/voucher/revoke", #"{"code":"1234567890"}"#)
                // Home Assistant's commands after the watch's, in the same lane: once they are answered, the watch's would have been.
                var codes: [String] = []
                let byReply = try await observer.command("home/unifi/voucher/create", #"{"minutes":60}"#)
                codes += (byReply["data"]?["vouchers"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
                try await observer.send("home/unifi/voucher/create", #"{"minutes":60}"#)
                // Without a response topic of its own, the answer is every subscriber's: no code in it.
                let byResponseTopic = try await observer.recorder.first(topic: "home/unifi/voucher/create/response")
                #expect(JSONValue.parse(byResponseTopic.payload)?["data"]?["codes"]?.stringValue?.hasPrefix("withheld") == true)
                let pressed = try await observer.command("home/unifi/controller/home/voucher/preset/1440", "PRESS")
                codes += (pressed["data"]?["vouchers"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
                _ = try await observer.latest("home/unifi/voucher/latest")
                #expect(codes.count == 2)
                codes = fixture.simulator.vouchers().compactMap { $0["code"]?.stringValue }
                #expect(codes.count == 3)
                _ = try await watch.latest("home/unifi/controller/home/vouchers") { $0["count"] == 3 }
                #expect(fixture.simulator.requestCount(method: "POST") == 3)
                #expect(fixture.simulator.requestCount(method: "DELETE") == 0)
                for message in watch.recorder.messages {
                    #expect(!message.topic.contains("/voucher/") && !message.topic.hasPrefix("home/replies/"), "the watch read \(message.topic)")
                    #expect(!codes.contains { (message.payloadString ?? "").contains($0) }, "the watch read a code on \(message.topic)")
                }
                await watch.disconnect()
            }
        }
    }
}
