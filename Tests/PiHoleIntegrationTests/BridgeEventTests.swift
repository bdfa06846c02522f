import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// `home/bridge/event` and `home/bridge/request/health_check` as a Pi-hole comes and goes.
@Suite struct BridgeEventTests {
    static func events(_ observer: Observer, _ type: String) -> [JSONValue] {
        observer.recorder.messages.filter { $0.topic == "home/bridge/event" }.compactMap { JSONValue.parse($0.payload) }
            .filter { $0["type"] == .string(type) }
    }

    @Test func anUpstreamGoingDownAndComingBackIsAnEventAndAHealthCheckSaysSo() async throws {
        try await PiHoleFixture.run(ids: ["main", "spare"]) { fixture, observer in
            _ = try await observer.latest("home/pihole/main/availability") { $0 == "online" }
            _ = try await observer.latest("home/pihole/spare/availability") { $0 == "online" }
            // What health_check reads; it goes out after the Pi-holes' own (seen late on a loaded machine).
            _ = try await observer.latest("home/pihole/availability") { $0 == "online" }
            let healthy = try await observer.command("home/bridge/request/health_check")
            #expect(healthy["data"]?["healthy"] == true)
            #expect(healthy["data"]?["integrations"]?["pihole"]?["upstreams"] == ["main": true, "spare": true])
            #expect(Self.events(observer, "upstream_available").isEmpty, "online from the start is no event")

            try await fixture["main"].setFault(.serverError)
            try await waitUntil("an upstream_unavailable event") { !Self.events(observer, "upstream_unavailable").isEmpty }
            let down = Self.events(observer, "upstream_unavailable")
            #expect(down.count == 1, "the spare answers: the integration stays available")
            #expect(down.first?["data"]?["integration"] == "pihole")
            #expect(down.first?["data"]?["upstream"] == "main")
            #expect(down.first?["data"]?["error"]?.stringValue?.isEmpty == false)
            #expect(down.first?["time"]?.stringValue?.hasSuffix("Z") == true)
            let degraded = try await observer.command("home/bridge/request/health_check")
            #expect(degraded["data"]?["integrations"]?["pihole"]?["upstreams"] == ["main": false, "spare": true])
            #expect(degraded["data"]?["integrations"]?["pihole"]?["available"] == true)

            try await fixture["main"].setFault(nil)
            try await waitUntil("an upstream_available event") { !Self.events(observer, "upstream_available").isEmpty }
            #expect(Self.events(observer, "upstream_available").first?["data"]?["upstream"] == "main")
            #expect(!observer.recorder.messages.contains { $0.topic == "home/bridge/event" && $0.retain })
        }
    }

    @Test func everyPiHoleDownMakesTheBridgeUnhealthy() async throws {
        try await PiHoleFixture.run { fixture, observer in
            _ = try await observer.latest("home/pihole/availability") { $0 == "online" }
            try await fixture["main"].setFault(.dropConnections)
            _ = try await observer.latest("home/pihole/availability") { $0 == "offline" }
            let answer = try await observer.command("home/bridge/request/health_check")
            #expect(answer["data"]?["healthy"] == false)
            #expect(answer["data"]?["integrations"]?["pihole"]?["available"] == false)
            try await waitUntil("the integration's event") {
                Self.events(observer, "upstream_unavailable").contains { $0["data"]?["upstream"] == .null }
            }
        }
    }

    @Test func aTimedRestoreCarriedOutIsAnEvent() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addGroup(name: "kids")
            _ = try await observer.latest("home/pihole/availability") { $0 == "online" }
            let answer = try await observer.command("home/pihole/main/group/kids/set", #"{"enabled":false,"for":1}"#)
            #expect(answer["status"] == "ok")
            try await waitUntil("a restore_carried_out event", timeout: .seconds(15)) {
                !Self.events(observer, "restore_carried_out").isEmpty
            }
            let data = Self.events(observer, "restore_carried_out").first?["data"]
            #expect(data?["integration"] == "pihole")
            #expect(data?["target"] == "group/main/kids")
            #expect(data?["state"]?["enabled"] == true)
        }
    }
}
