import BridgeCore
import BridgeTestSupport
import Foundation
import MQTT
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// The roles in broker-config/acl, enforced by a real mosquitto.
@Suite struct BrokerRoleTests {
    static let bridgeUser = "mqtt:\n  username: bridge\n  password: bridge-password\n"

    static func asHomeAssistant(_ configuration: inout MQTTConfiguration) {
        configuration.username = "homeassistant"
        configuration.password = "homeassistant-password"
    }

    @Test func theWatchMayOnlyPauseAndResume() async throws {
        let broker = try await TestBroker.withRoles()
        defer { broker.stop() }
        try await PiHoleFixture.run(broker: broker, brokerYAML: Self.bridgeUser, observer: Self.asHomeAssistant) { fixture, _ in
            let watchID = uniqueClientID("watch")
            let watch = try await Observer(broker, subscribe: ["home/#"]) { configuration in
                configuration.clientID = watchID
                configuration.username = "watch"
                configuration.password = "watch-password"
            }
            _ = try await watch.latest("home/pihole") { $0["blocking"] == "enabled" }
            fixture["main"].addGroup(name: "kids")
            for forbidden in [
                "home/pihole/domains/allow/add", "home/pihole/main/blocking/set", "home/pihole/main/pause", "home/pihole/refresh",
                "home/pihole/action/gravity", "home/pihole/main/action/restartdns", "home/pihole/action/flush_logs",
                "home/pihole/group/kids/set", "home/pihole/main/group/kids/set", "home/pihole/recently_blocked/get",
            ] {
                try? await watch.send(forbidden, forbidden.hasSuffix("/set") ? "OFF" : "")
            }
            // The allowed pause goes through and is answered; the watch can read the answer.
            try await watch.send("home/pihole/pause", "30")
            let answer = try await watch.recorder.first(topic: "home/pihole/pause/response")
            #expect(JSONValue.parse(answer.payload)?["status"] == "ok")
            #expect(fixture["main"].blocking == .disabled)
            // Through the companion's way too: an answer under home/replies/<its own client id>/.
            let ownReplies = "home/replies/\(watchID)/resume"
            try await watch.client.subscribe(ownReplies, qos: .atLeastOnce)
            try await watch.client.publish(
                "home/pihole/resume", payload: [], qos: .atLeastOnce, properties: MQTTProperties(responseTopic: ownReplies, correlationData: [1]))
            let resumed = try await watch.recorder.first(topic: ownReplies)
            #expect(JSONValue.parse(resumed.payload)?["status"] == "ok")
            // Nothing the watch was not allowed to send reached the bridge, or the Pi-hole.
            #expect(fixture.calls("main", "/api/domains").isEmpty)
            #expect(fixture.calls("main", "/api/action").isEmpty)
            #expect(fixture.calls("main", "/api/queries").isEmpty)
            #expect(fixture["main"].groupPutCount == 0)
            #expect(fixture.calls("main", "/api/dns/blocking").filter { $0.method == "POST" }.count == 2)
            #expect(!watch.recorder.messages.contains { $0.topic.hasSuffix("/response") && !$0.topic.hasPrefix("home/pihole/pause") })
            await watch.disconnect()
        }
    }

    /// The bridge's own requests (a reload, the log level, a health check) are Home Assistant's,
    /// not the watch's: the broker drops them, and the bridge answers only Home Assistant.
    @Test func theWatchMayNotSendBridgeRequests() async throws {
        let broker = try await TestBroker.withRoles()
        defer { broker.stop() }
        try await PiHoleFixture.run(broker: broker, brokerYAML: Self.bridgeUser, observer: Self.asHomeAssistant) { _, _ in
            let watch = try await Observer(broker, subscribe: ["home/#"]) { configuration in
                configuration.username = "watch"
                configuration.password = "watch-password"
            }
            for request in ["health_check", "log_level", "reload"] {
                try? await watch.send("home/bridge/request/\(request)", request == "log_level" ? #"{"level":"debug"}"# : "")
            }
            let assistant = try await Observer(broker, subscribe: ["home/#"], configure: Self.asHomeAssistant)
            try await assistant.send("home/bridge/request/health_check", "")
            // The bridge answers requests in order: Home Assistant's answer comes after any the watch's would have.
            _ = try await assistant.recorder.first(topic: "home/bridge/request/health_check/response")
            let level = try await assistant.command("home/bridge/request/log_level")
            #expect(level["data"] == ["level": "info"], "the watch's log_level never arrived")
            try await Task.sleep(for: .milliseconds(300))
            let answers = watch.recorder.messages.filter { $0.topic.hasPrefix("home/bridge/request/") && $0.topic.hasSuffix("/response") }
            #expect(answers.count == 1, "only Home Assistant's health check is answered: \(answers.map(\.topic))")
            await assistant.disconnect()
            await watch.disconnect()
        }
    }

    @Test func homeAssistantMaySendAnyCommand() async throws {
        let broker = try await TestBroker.withRoles()
        defer { broker.stop() }
        try await PiHoleFixture.run(broker: broker, brokerYAML: Self.bridgeUser, observer: Self.asHomeAssistant) { fixture, _ in
            let assistant = try await Observer(broker, subscribe: ["home/#", "homeassistant/#"], configure: Self.asHomeAssistant)
            _ = try await assistant.recorder.first(topic: "homeassistant/switch/home2mqtt_home/pihole_main_blocking/config")
            #expect(try await assistant.command("home/pihole/main/blocking/set", "OFF")["status"] == "ok")
            #expect(try await assistant.command("home/pihole/domains/deny/add", "ads.example")["status"] == "ok")
            await assistant.disconnect()
        }
    }

    @Test func strangersAreRefused() async throws {
        let broker = try await TestBroker.withRoles()
        defer { broker.stop() }
        var configuration = MQTTConfiguration(clientID: uniqueClientID("stranger"), host: broker.host, port: broker.port)
        configuration.username = "watch"
        configuration.password = "guess"
        let client = try MQTTClient(configuration: configuration, logger: testLogger("stranger"))
        await #expect(throws: MQTTError.self) { try await client.connect(timeout: .seconds(5)) }
    }
}
