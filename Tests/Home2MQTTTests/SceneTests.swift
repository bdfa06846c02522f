import AllUpstreamsTestSupport
import BellasReefSimulator
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import Testing
import UniFiSimulator

/// Scenes across integrations, through the real executable and the three simulators: ON applies
/// every part, a part that fails leaves the others applied and is reported, and OFF (also after a
/// restart) or the time running out puts each part back as it was before the ON.
@Suite struct SceneTests {
    static let returnPump = "2cc8582c-b9d8-42f9-8568-78718949aeca"
    static let offlinePlug = "482f89df-1943-40c6-a26c-63fb0bcefc75"
    static let tablet = UniFiSimulatorFixtures.downtimeTabletID

    static let scenes = """
        scenes:
          - name: Quiet evening
            parts:
              - unifi_rule: Downtime tablet
                enabled: true
              - pihole_group: kids
                enabled: false
              - pihole_client: 192.168.1.50
                groups: [strict]
              - reef_outlet: Return Pump
                state: off
              - reef_outlet: Offline Plug
                state: on
              - pihole: all
                pause: 300

        """

    static func prepare(_ upstreams: AllUpstreams) {
        _ = upstreams.piHole.addGroup(name: "kids")
        _ = upstreams.piHole.addGroup(name: "strict")
        _ = upstreams.piHole.addClient("192.168.1.50")
    }

    static func tabletEnabled(_ upstreams: AllUpstreams) -> Bool? {
        upstreams.unifi.simulator.rule(.aclRules, id: tablet)?["enabled"]?.boolValue
    }

    @Test func aSceneOverAllThreeWithOnePartFailingAndItsEndAfterARestart() async throws {
        try await AllUpstreams.run { upstreams in
            Self.prepare(upstreams)
            let state = temporaryStateDirectory()
            let config = try upstreams.configFile(bridge: "  state_dir: \(state)\n", sections: Self.scenes)
            var bridge = try BridgeProcess(["run", "--config", config])
            var observer = try await Observer(upstreams.broker, subscribe: ["home/#", "homeassistant/#"])
            try await AllUpstreams.waitUntilServing(observer)
            _ = try await observer.latest("home/scene/quiet-evening") { $0["state"] == "off" }
            _ = try await observer.latest("homeassistant/switch/home2mqtt_home/scene_quiet_evening/config") {
                $0["command_topic"] == "home/scene/quiet-evening/set"
            }

            let answer = try await observer.command("home/scene/quiet-evening/set", #"{"state":"on","for":3600}"#)
            #expect(answer["status"] == "error")
            #expect(answer["error"]?.stringValue?.contains("1 of 6 parts of 'Quiet evening' failed (reef_outlet Offline Plug)") == true)
            let parts = answer["data"]?["parts"]?.arrayValue ?? []
            #expect(parts.map { $0["status"]?.stringValue ?? "" } == ["ok", "ok", "ok", "ok", "error", "ok"])
            #expect(parts[4]["error"]?.stringValue?.contains("outlet_disabled") == true)
            #expect(answer["data"]?["state"] == "on")
            #expect(answer["data"]?["until"]?.stringValue != nil)

            #expect(Self.tabletEnabled(upstreams) == true)
            #expect(upstreams.piHole.group(named: "kids")?.enabled == false)
            #expect(upstreams.piHole.clientGroups("192.168.1.50") == ["strict"])
            #expect(upstreams.reef.outlet(Self.returnPump)?.isOn == false)
            #expect(upstreams.reef.outlet(Self.offlinePlug)?.isOn == false)
            #expect(upstreams.piHole.blocking == .disabled)
            _ = try await observer.latest("home/scene/quiet-evening") { $0["state"] == "on" && $0["until"]?.stringValue != nil }
            // The scene keeps the promise: the parts' own timers are not set.
            _ = try await observer.latest("home/unifi/rule/downtime-tablet") { $0["enabled"] == true && $0["restore_at"] == .null }

            // A restart: the promise is read back from the state directory.
            bridge.signal(SIGTERM)
            #expect(try await bridge.finish().status == 0)
            bridge = try BridgeProcess(["run", "--config", config])
            defer { bridge.child.terminate(signal: SIGKILL) }
            await observer.disconnect()
            observer = try await Observer(upstreams.broker, subscribe: ["home/#"])
            _ = try await observer.latest("home/bridge/state", timeout: .seconds(30)) { $0 == "online" }
            try await AllUpstreams.waitUntilServing(observer)
            upstreams.reef.clearRequests()

            let off = try await observer.command("home/scene/quiet-evening/set", "OFF")
            #expect(off["status"] == "ok", "\(off)")
            #expect(off["data"]?["state"] == "off")
            #expect(Self.tabletEnabled(upstreams) == false)
            #expect(upstreams.piHole.group(named: "kids")?.enabled == true)
            #expect(upstreams.piHole.clientGroups("192.168.1.50") == ["Default"])
            #expect(upstreams.reef.outlet(Self.returnPump)?.isOn == true)
            #expect(upstreams.piHole.blocking == .enabled)
            // The part that failed had nothing applied, so nothing is restored there.
            #expect(!upstreams.reef.requests(.outlets).contains { $0.method != "GET" && $0.path.contains(Self.offlinePlug) })
            _ = try await observer.latest("home/scene/quiet-evening") { $0["state"] == "off" }
            await observer.disconnect()
        }
    }

    @Test func aSecondOnKeepsTheFirstsPromiseAndTheTimeRunningOutRestores() async throws {
        try await AllUpstreams.run { upstreams in
            Self.prepare(upstreams)
            let config = try upstreams.configFile(sections: Self.scenes)
            let bridge = try BridgeProcess(["run", "--config", config])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await Observer.watching(upstreams.broker, subscribe: ["home/#"]) { observer in
                try await AllUpstreams.waitUntilServing(observer)
                // As a person types it: the companion, by the scene's name.
                let broker = ["--host", upstreams.broker.host, "--port", String(upstreams.broker.port)]
                let first = try await companion(["scene", "Quiet evening", "on"] + broker)
                #expect(first.status == 8, "one part fails: the controller refuses its disabled plug (upstream_refused)")
                #expect(first.stderr.contains("1 of 6 parts of 'Quiet evening' failed (reef_outlet Offline Plug)"), "\(first.stderr)")
                _ = try await observer.latest("home/scene/quiet-evening") { $0["state"] == "on" && $0["until"] == .null }
                #expect(upstreams.piHole.group(named: "kids")?.enabled == false)
                // The second ON finds the parts applied; its end must still go back to before the first.
                let second = try await observer.command("home/scene/quiet-evening/set", #"{"state":"on","for":2}"#)
                #expect(second["data"]?["until"]?.stringValue != nil)
                _ = try await observer.latest("home/scene/quiet-evening", timeout: .seconds(30)) { $0["state"] == "off" }
                #expect(Self.tabletEnabled(upstreams) == false)
                #expect(upstreams.piHole.group(named: "kids")?.enabled == true)
                #expect(upstreams.piHole.clientGroups("192.168.1.50") == ["Default"])
                #expect(upstreams.reef.outlet(Self.returnPump)?.isOn == true)
                #expect(upstreams.piHole.blocking == .enabled)
                let events = observer.recorder.messages.filter { $0.topic == "home/bridge/event" }.compactMap { JSONValue.parse($0.payload) }
                    .filter { $0["type"] == "scene" }
                #expect(events.map { $0["data"]?["state"]?.stringValue ?? "" } == ["on", "on", "off"])
                #expect(events.allSatisfy { $0["data"]?["scene"] == "quiet-evening" })
            }
        }
    }

    @Test func badCommandsAreAnsweredAndReachNoUpstream() async throws {
        try await AllUpstreams.run { upstreams in
            Self.prepare(upstreams)
            let bridge = try BridgeProcess(["run", "--config", try upstreams.configFile(sections: Self.scenes)])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await Observer.watching(upstreams.broker, subscribe: ["home/#"]) { observer in
                try await AllUpstreams.waitUntilServing(observer)
                let groupPuts = upstreams.piHole.groupPutCount
                let bad: [(String, String, String)] = [
                    ("home/scene/nope/set", "ON", "unknown scene 'nope' (configured: quiet-evening)"),
                    ("home/scene/quiet-evening/set", "MAYBE", "scene/<key>/set takes ON, OFF"),
                    ("home/scene/quiet-evening/set", "", "got nothing"),
                    ("home/scene/quiet-evening/set", #"{"state":"off","for":5}"#, "OFF takes no time"),
                    ("home/scene/quiet-evening/set", #"{"state":"on","for":0}"#, "at least 1 second"),
                    ("home/scene/quiet-evening/set", #"{"state":"on","colour":"red"}"#, "unknown key 'colour'"),
                    ("home/scene/quiet-evening/set", "[1]", "scene/<key>/set takes"),
                ]
                for (topic, payload, error) in bad {
                    let answer = try await observer.command(topic, payload)
                    #expect(answer["status"] == "error")
                    #expect(answer["error"]?.stringValue?.contains(error) == true, "\(payload): \(answer)")
                }
                let off = try await observer.command("home/scene/quiet-evening/set", "OFF")
                #expect(off["status"] == "ok" && off["data"]?["state"] == "off", "OFF of a scene that is off changes nothing")
                #expect(upstreams.piHole.groupPutCount == groupPuts)
                #expect(upstreams.unifi.puts(Self.tablet) == 0)
                #expect(!upstreams.reef.requests(.outlets).contains { $0.method != "GET" })
                // Scenes have no upstream to be away: they keep the bridge healthy.
                let health = try await observer.command("home/bridge/request/health_check")
                #expect(health["data"]?["healthy"] == true, "\(health)")
                #expect(health["data"]?["integrations"]?["scene"]?["available"] == true, "\(health)")
            }
        }
    }

    @Test(arguments: [
        ("  - name: A\n    parts:\n      - hue_light: x\n", "scenes[0].parts[0]: names no part of a configured integration"),
        ("  - name: A\n    parts:\n      - pihole_group: kids\n        unifi_rule: x\n        enabled: true\n", "names 2 parts"),
        ("  - name: A\n    parts:\n      - pihole_group: kids\n", "scenes[0].parts[0].enabled: a group part needs enabled"),
        ("  - name: A\n    parts:\n      - reef_outlet: Heater\n        state: warm\n", "scenes[0].parts[0].state: an outlet part needs state"),
        ("  - name: A\n    parts:\n      - pihole: nope\n        pause: 60\n", "scenes[0].parts[0].pihole: must be all or a configured Pi-hole"),
        ("  - name: A\n    parts: []\n", "scenes[0].parts: a scene needs 1 to 32 parts"),
        ("  - name: A\n    parts:\n      - unifi_rule: x\n        enabled: true\n        colour: red\n", "scenes[0].parts[0].colour"),
        ("  - name: A b\n    parts:\n      - pihole: all\n  - name: a-b\n    parts:\n      - pihole: all\n", "scenes[1].name"),
    ])
    func aBadSceneStopsTheCheckNamingItsKey(scene: String, error: String) async throws {
        try await AllUpstreams.run { upstreams in
            let config = try upstreams.configFile(sections: "scenes:\n" + scene)
            let check = try BridgeProcess(["check-config", "--config", config])
            let (status, _, stderr) = try await check.finish()
            #expect(status == 78)
            #expect(stderr.contains(error), "\(stderr)")
        }
    }

    @Test func aTargetTheUpstreamDoesNotHaveStopsTheStart() async throws {
        try await AllUpstreams.run { upstreams in
            let yaml = "scenes:\n  - name: A\n    parts:\n      - pihole_group: Default\n        enabled: true\n      - unifi_rule: Downtime nobody\n        enabled: true\n"
            let config = try upstreams.configFile(sections: yaml)
            let run = try BridgeProcess(["run", "--config", config])
            let (status, _, stderr) = try await run.finish(timeout: .seconds(30))
            #expect(status == 78)
            #expect(stderr.contains("scenes[0].parts[1].unifi_rule: no console has a rule 'Downtime nobody'"), "\(stderr)")
            // check-config reads the file alone; asked to, it asks the upstreams as run does.
            #expect(try await BridgeProcess(["check-config", "--config", config]).finish().status == 0)
            let asked = try await BridgeProcess(["check-config", "--upstream", "--config", config]).finish(timeout: .seconds(30))
            #expect(asked.status == 78)
            #expect(asked.stderr.contains("scenes[0].parts[1].unifi_rule: no console has a rule 'Downtime nobody'"), "\(asked.stderr)")
            // The Pi-hole was asked for its groups, and logged out of after.
            #expect(upstreams.piHole.loginCount > 0)
            #expect(upstreams.piHole.sessionUserAgents.isEmpty)
        }
    }
}
