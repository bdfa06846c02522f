import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
@testable import PiHoleIntegration
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// Groups: block lists per family member, switched on and off, timed, on one Pi-hole or on all.
@Suite struct PiHoleGroupTests {
    @Test func groupsArePublishedWithASwitchEachAndTheDefaultGroupOnlyShown() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addGroup(name: "Kids Tablet", comment: "Emma's tablet")
            #expect(try await observer.command("home/pihole/refresh")["status"] == "ok")
            let groups = try await observer.latest("home/pihole/main/groups") { $0["kids-tablet"] != nil }
            #expect(groups["kids-tablet"]?["name"] == "Kids Tablet")
            #expect(groups["kids-tablet"]?["enabled"] == true)
            #expect(groups["kids-tablet"]?["comment"] == "Emma's tablet")
            #expect(groups["default"]?["default"] == true)
            // The aggregate goes out after the Pi-hole's own: waited for, not read as it is now.
            _ = try await observer.latest("home/pihole/groups") { $0["kids-tablet"]?["state"] == "enabled" }
            let kids = "homeassistant/switch/home2mqtt_home/pihole_main_group_\(PiHoleGroupRegistry.nameID("Kids Tablet"))/config"
            let config = try await observer.latest(kids)
            #expect(config["command_topic"] == "home/pihole/main/group/kids-tablet/set")
            #expect(config["state_topic"] == "home/pihole/main/groups")
            _ = try await observer.latest("homeassistant/binary_sensor/home2mqtt_home/pihole_main_group_\(PiHoleGroupRegistry.nameID("Default"))/config")
        }
    }

    /// GET → only `enabled` changed → PUT: the comment survives (FTL erases one a PUT leaves out).
    @Test func aSwitchSendsTheWholeGroupBackAndKeepsItsComment() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addGroup(name: "kids", comment: "the children's devices")
            let off = try await observer.command("home/pihole/main/group/kids/set", "OFF")
            #expect(off["status"] == "ok", "\(off)")
            #expect(off["data"]?["enabled"] == false)
            #expect(fixture["main"].group(named: "kids")?.enabled == false)
            #expect(fixture["main"].group(named: "kids")?.comment == "the children's devices")
            _ = try await observer.latest("home/pihole/main/groups") { $0["kids"]?["enabled"] == false }
            // By its exact name too, JSON form.
            #expect(try await observer.command("home/pihole/main/group/kids/set", #"{"enabled":true}"#)["status"] == "ok")
            #expect(fixture["main"].group(named: "kids")?.enabled == true)
            #expect(fixture["main"].groupPutCount == 2)
        }
    }

    @Test(arguments: [
        ("group/nobody/set", "OFF"), ("group/kids/set", "maybe"), ("group/kids/set", #"{"enabled":false,"for":0}"#),
        ("group/kids/set", #"{"enabled":false,"force":"yes"}"#), ("group/default/set", "OFF"),
        ("group/default/set", #"{"enabled":false}"#), ("group/kids/set", #"{"enabled":true,"colour":"red"}"#),
    ])
    func badGroupCommandsAreRefusedWithoutAnyWrite(topic: String, payload: String) async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addGroup(name: "kids")
            _ = try await observer.command("home/pihole/refresh")
            let answer = try await observer.command("home/pihole/\(topic)", payload)
            #expect(answer["status"] == "error", "\(topic) \(payload) → \(answer)")
            #expect(fixture["main"].groupPutCount == 0)
            #expect(fixture["main"].groupsCreatedByPost == 0)
        }
    }

    @Test func disablingTheDefaultGroupTakesForce() async throws {
        try await PiHoleFixture.run { fixture, observer in
            let refused = try await observer.command("home/pihole/main/group/default/set", "OFF")
            #expect(refused["error"]?.stringValue?.contains("force") == true, "\(refused)")
            let forced = try await observer.command("home/pihole/main/group/default/set", #"{"enabled":false,"force":true}"#)
            #expect(forced["status"] == "ok", "\(forced)")
            #expect(fixture["main"].group(named: "Default")?.enabled == false)
            #expect(try await observer.command("home/pihole/main/group/default/set", "ON")["status"] == "ok")
        }
    }

    /// The plain topic switches the group on every Pi-hole that has it, and on none that does not.
    @Test func thePlainTopicSwitchesTheGroupOnEveryPiHoleThatHasIt() async throws {
        try await PiHoleFixture.run(ids: ["alpha", "beta", "gamma"]) { fixture, observer in
            fixture["alpha"].addGroup(name: "kids")
            fixture["beta"].addGroup(name: "kids")
            _ = try await observer.command("home/pihole/refresh")
            let answer = try await observer.command("home/pihole/group/kids/set", "OFF")
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["data"]?["alpha"]?["enabled"] == false)
            #expect(answer["data"]?["beta"]?["enabled"] == false)
            #expect(fixture["alpha"].group(named: "kids")?.enabled == false)
            #expect(fixture["beta"].group(named: "kids")?.enabled == false)
            #expect(fixture["gamma"].groupPutCount == 0)
            #expect(fixture["gamma"].groupsCreatedByPost == 0)
            let aggregate = try await observer.latest("home/pihole/groups") { $0["kids"]?["state"] == "disabled" }
            #expect(aggregate["kids"]?["piholes"] == ["alpha": false, "beta": false])
            _ = try await observer.latest("homeassistant/switch/home2mqtt_home/pihole_all_group_\(PiHoleGroupRegistry.nameID("kids"))/config")
            // One Pi-hole changed behind the bridge's back: the aggregate says so.
            fixture["beta"].setGroupEnabled(name: "kids", enabled: true)
            _ = try await observer.command("home/pihole/refresh")
            _ = try await observer.latest("home/pihole/groups") { $0["kids"]?["state"] == "mixed" && $0["kids"]?["enabled"] == .null }
        }
    }

    @Test func aTimedSwitchIsRestoredAlsoAcrossARestart() async throws {
        try await PiHoleFixture.withLastingSimulator(prepare: { $0.addGroup(name: "kids", comment: "tablets") }) { simulator, fixture in
            let stateDir = temporaryStateDirectory()
            let yaml = "bridge:\n  state_dir: \(stateDir)\n" + PiHoleFixture.yaml(fixture.simulators)
            try await fixture.runBridge(yaml: yaml) { _, observer in
                let answer = try await observer.command("home/pihole/main/group/kids/set", #"{"enabled":false,"for":4}"#)
                #expect(answer["status"] == "ok", "\(answer)")
                #expect(answer["data"]?["restore_to"] == true)
                #expect(answer["data"]?["restore_at"]?.stringValue != nil)
                _ = try await observer.latest("home/pihole/main/groups") { $0["kids"]?["restore_at"] != .null }
            }
            #expect(try String(contentsOfFile: stateDir + "/timers.json", encoding: .utf8).contains("kids"))
            #expect(simulator.group(named: "kids")?.enabled == false)
            try await fixture.runBridge(yaml: yaml) { _, observer in
                _ = try await observer.latest("home/pihole/main/groups", timeout: .seconds(15)) {
                    $0["kids"]?["enabled"] == true && $0["kids"]?["restore_at"] == .null
                }
                #expect(simulator.group(named: "kids")?.enabled == true)
                #expect(simulator.group(named: "kids")?.comment == "tablets")
            }
        }
    }

    /// A plain switch replaces the promise of a timed one: nothing is restored later.
    @Test func aPlainSwitchCancelsAPendingRestore() async throws {
        let clock = ManualClock()
        try await PiHoleFixture.run(clock: clock) { fixture, observer in
            fixture["main"].addGroup(name: "kids")
            _ = try await observer.command("home/pihole/main/group/kids/set", #"{"enabled":false,"for":5}"#)
            let answer = try await observer.command("home/pihole/main/group/kids/set", "OFF")
            #expect(answer["data"]?["restore_at"] == .null)
            try await clock.advance(by: .seconds(5))
            #expect(fixture["main"].group(named: "kids")?.enabled == false)
            #expect(fixture["main"].groupPutCount == 2)
        }
    }
}
