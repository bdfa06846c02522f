import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// The watch role and scenes, with the broker's ACL as `broker-config/acl` ships it and with the
/// one line it documents uncommented: the watch reads every scene and switches only that one.
@Suite struct SceneRoleTests {
    static let scenes = """
        scenes:
          - name: Bedtime
            parts:
              - pihole_group: kids
                enabled: false
          - name: Homework
            parts:
              - pihole_group: strict
                enabled: false

        """

    /// Runs the bridge (as the `bridge` user) over a Pi-hole simulator with both groups, and a watch.
    private func withWatch(acl: String, _ body: (PiHoleSimulator, Observer) async throws -> Void) async throws {
        let broker = try await TestBroker.withRoles(acl: acl)
        defer { broker.stop() }
        let piHole = PiHoleSimulator(hostName: "pi-main")
        try await piHole.start()
        defer { Task { await piHole.stop() } }
        _ = piHole.addGroup(name: "kids")
        _ = piHole.addGroup(name: "strict")
        let config = try BridgeProcess.writeConfig(
            "mqtt:\n  port: \(broker.port)\n  username: bridge\n  password: bridge-password\n"
                + PiHoleFixture.yaml(["main": piHole]) + Self.scenes)
        let bridge = try BridgeProcess(["run", "--config", config])
        defer { bridge.child.terminate(signal: SIGKILL) }
        let watch = try await Observer(broker, subscribe: ["home/#"]) { configuration in
            configuration.username = "watch"
            configuration.password = "watch-password"
        }
        _ = try await watch.latest("home/scene/bedtime", timeout: .seconds(30)) { $0["state"] == "off" }
        _ = try await watch.latest("home/scene/homework") { $0["state"] == "off" }
        try await body(piHole, watch)
        await watch.disconnect()
    }

    @Test func theWatchMaySwitchOnlyTheSceneItsACLNames() async throws {
        let acl = try String(contentsOfFile: TestBroker.householdACL, encoding: .utf8)
        #expect(acl.contains("#topic write home/scene/bedtime/set"))
        let allowing = FileManager.default.temporaryDirectory.appendingPathComponent("acl-\(UUID().uuidString)").path
        try acl.replacing("#topic write home/scene/bedtime/set", with: "topic write home/scene/bedtime/set")
            .write(toFile: allowing, atomically: true, encoding: .utf8)
        try await withWatch(acl: allowing) { piHole, watch in
            try? await watch.send("home/scene/homework/set", "ON")
            try await watch.send("home/scene/bedtime/set", "ON")
            let answer = try await watch.recorder.first(topic: "home/scene/bedtime/set/response", timeout: .seconds(20))
            #expect(JSONValue.parse(answer.payload)?["status"] == "ok")
            #expect(piHole.group(named: "kids")?.enabled == false)
            _ = try await watch.latest("home/scene/bedtime") { $0["state"] == "on" }
            // Its other scene never reached the bridge.
            #expect(piHole.group(named: "strict")?.enabled == true)
            #expect(!watch.recorder.messages.contains { $0.topic == "home/scene/homework/set/response" })
        }
    }

    @Test func theShippedACLLetsTheWatchReadScenesButSwitchNone() async throws {
        try await withWatch(acl: TestBroker.householdACL) { piHole, watch in
            try? await watch.send("home/scene/bedtime/set", "ON")
            try? await watch.send("home/scene/homework/set", "ON")
            // Its resume is answered; the scenes, sent before it, were dropped by the broker.
            try await watch.send("home/pihole/resume", "")
            _ = try await watch.recorder.first(topic: "home/pihole/resume/response", timeout: .seconds(20))
            #expect(piHole.groupPutCount == 0)
            #expect(!watch.recorder.messages.contains { $0.topic.hasPrefix("home/scene/") && $0.topic.hasSuffix("/response") })
        }
    }
}
