import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
@testable import PiHoleIntegration
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// A device's filtering for a while: a configured client's groups set, or its filtering paused,
/// and restored exactly as they were when the time is up.
@Suite struct PiHoleClientFilteringTests {
    /// The tablet is in Default and kids; for a while it is in strict alone; then exactly back.
    @Test func timedGroupsAreRestoredExactlyIncludingTheDefaultGroup() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addGroup(name: "kids")
            fixture["main"].addGroup(name: "strict")
            fixture["main"].addClient("192.168.1.23", groups: ["Default", "kids"], comment: "Emma's tablet")
            _ = try await observer.command("home/pihole/refresh")
            let clients = try await observer.latest("home/pihole/main/clients") { $0["192-168-1-23"] != nil }
            #expect(clients["192-168-1-23"]?["groups"] == ["Default", "kids"])
            // FTL's "" for a client without a host name: keyed by its address, and no name.
            #expect(clients["192-168-1-23"]?["name"] == .null)
            let answer = try await observer.command("home/pihole/client/192-168-1-23/groups/set", #"{"groups":["strict"],"for":3}"#)
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["data"]?["main"]?["restore_to"] == ["Default", "kids"])
            #expect(fixture["main"].clientGroups("192.168.1.23") == ["strict"])
            #expect(fixture["main"].client("192.168.1.23")?.comment == "Emma's tablet")
            // The change's own state first: the one from before it says Default and kids too, and
            // the answer can come before it.
            _ = try await observer.latest("home/pihole/main/clients") { $0["192-168-1-23"]?["restore_at"]?.stringValue != nil }
            _ = try await observer.latest("home/pihole/main/clients", timeout: .seconds(15)) {
                $0["192-168-1-23"]?["groups"] == ["Default", "kids"] && $0["192-168-1-23"]?["restore_at"] == .null
            }
            #expect(fixture["main"].clientGroups("192.168.1.23") == ["Default", "kids"])
            #expect(fixture["main"].client("192.168.1.23")?.comment == "Emma's tablet")
        }
    }

    /// A pause puts the client in the bridge's own group alone (made once, no lists), shows until
    /// when, and a second timed change keeps the first one's promise.
    @Test func aPauseUsesTheBridgesOwnGroupAndASecondChangeKeepsTheFirstPromise() async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addGroup(name: "kids")
            fixture["main"].addClient("emma-tablet", groups: ["kids"])
            let paused = try await observer.command("home/pihole/client/emma-tablet/pause", #"{"for":60}"#)
            #expect(paused["status"] == "ok", "\(paused)")
            #expect(fixture["main"].clientGroups("emma-tablet") == [PiHoleClientRegistry.unfilteredGroup])
            let own = try #require(fixture["main"].group(named: PiHoleClientRegistry.unfilteredGroup))
            #expect(own.enabled)
            let aggregate = try await observer.latest("home/pihole/clients") { $0["emma-tablet"]?["paused"] == true }
            #expect(aggregate["emma-tablet"]?["paused_until"]?.stringValue != nil)
            // Paused again: the group is not made twice, and the promise is still "kids".
            let again = try await observer.command("home/pihole/client/emma-tablet/pause", "120")
            #expect(again["data"]?["main"]?["restore_to"] == ["kids"], "\(again)")
            #expect(fixture["main"].groups.filter { $0.name == PiHoleClientRegistry.unfilteredGroup }.count == 1)
            #expect(fixture["main"].groupsCreatedByPost == 1)
            // HA's entities for the client.
            let button = "homeassistant/button/home2mqtt_home/pihole_client_\(PiHoleGroupRegistry.nameID("emma-tablet"))_pause_15/config"
            #expect(try await observer.latest(button)["payload_press"] == #"{"for":900}"#)
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/pihole_client_\(PiHoleGroupRegistry.nameID("emma-tablet"))_paused_until/config")
        }
    }

    @Test func aTimedChangeIsRestoredAcrossARestart() async throws {
        try await PiHoleFixture.withLastingSimulator(prepare: {
            $0.addGroup(name: "kids")
            $0.addGroup(name: "strict")
            $0.addClient("12:34:56:78:9A:BC", groups: ["Default", "kids"])
        }) { simulator, fixture in
            let stateDir = temporaryStateDirectory()
            let yaml = "bridge:\n  state_dir: \(stateDir)\n" + PiHoleFixture.yaml(fixture.simulators)
            try await fixture.runBridge(yaml: yaml) { _, observer in
                // By the MAC address itself, in another case than FTL stores it.
                let answer = try await observer.command("home/pihole/client/12:34:56:78:9a:bc/groups/set", #"{"groups":["strict"],"for":4}"#)
                #expect(answer["status"] == "ok", "\(answer)")
            }
            #expect(simulator.clientGroups("12:34:56:78:9A:BC") == ["strict"])
            // Watching from before the second start, live messages only: the clients state the first
            // run left can be the one from before the change, which already says Default and kids.
            try await Observer.watching(fixture.broker, subscribe: ["home/pihole/main/clients"]) { watcher in
                try await fixture.runBridge(yaml: yaml) { _, _ in
                    _ = try await watcher.latest("home/pihole/main/clients", live: true, timeout: .seconds(15)) { clients in
                        clients.objectValue?.values.contains { $0["groups"] == ["Default", "kids"] && $0["restore_at"] == .null } == true
                    }
                    #expect(simulator.clientGroups("12:34:56:78:9A:BC") == ["Default", "kids"])
                }
            }
        }
    }

    /// The Pi-hole is away when the pause ends: the restore waits for it and then happens, at
    /// the next try (every 15 s). On virtual time.
    @Test func aRestoreDueWhileThePiHoleIsAwayHappensWhenItIsBack() async throws {
        let clock = ManualClock()
        try await PiHoleFixture.run(clock: clock) { fixture, observer in
            fixture["main"].addGroup(name: "kids")
            fixture["main"].addClient("192.168.1.60", groups: ["kids"])
            #expect(try await observer.command("home/pihole/client/192-168-1-60/pause", "2")["status"] == "ok")
            try await fixture["main"].setFault(.down)
            try await clock.advance(by: .seconds(4))
            #expect(fixture["main"].clientGroups("192.168.1.60") == [PiHoleClientRegistry.unfilteredGroup])
            try await fixture["main"].setFault(nil)
            try await clock.advance(by: .seconds(15))
            #expect(fixture["main"].clientGroups("192.168.1.60") == ["kids"])
        }
    }

    /// The client is removed on the Pi-hole before its restore: nothing is restored, and above all
    /// no PUT brings it back (FTL's PUT would create it).
    @Test func aClientRemovedMeanwhileIsNotBroughtBack() async throws {
        let clock = ManualClock()
        try await PiHoleFixture.run(clock: clock) { fixture, observer in
            fixture["main"].addGroup(name: "strict")
            fixture["main"].addClient("192.168.1.40")
            #expect(try await observer.command("home/pihole/main/client/192.168.1.40/groups/set", #"{"groups":["strict"],"for":2}"#)["status"] == "ok")
            let writes = fixture["main"].clientWrites
            fixture["main"].removeClient("192.168.1.40")
            try await clock.advance(by: .seconds(2))
            #expect(fixture["main"].client("192.168.1.40") == nil)
            #expect(fixture["main"].clientWrites == writes)
        }
    }

    /// A client the Pi-hole does not know is configured only when asked explicitly, and its
    /// restore takes the configuration away again.
    @Test func anUnknownClientIsConfiguredOnlyWhenAskedAndUnconfiguredAfter() async throws {
        let clock = ManualClock()
        try await PiHoleFixture.run(clock: clock) { fixture, observer in
            fixture["main"].addGroup(name: "strict")
            let refused = try await observer.command("home/pihole/client/192.168.1.77/groups/set", #"{"groups":["strict"]}"#)
            #expect(refused["status"] == "error" && refused["code"] == "unknown_target")
            #expect(refused["error"]?.stringValue?.contains("create") == true, "\(refused)")
            #expect(fixture["main"].clientWrites == 0)
            let made = try await observer.command("home/pihole/client/192.168.1.77/groups/set", #"{"groups":["strict"],"create":true,"for":2}"#)
            #expect(made["status"] == "ok", "\(made)")
            #expect(made["data"]?["main"]?["restore_to"] == "unconfigured")
            #expect(fixture["main"].clientGroups("192.168.1.77") == ["strict"])
            try await clock.advance(by: .seconds(2))
            #expect(fixture["main"].client("192.168.1.77") == nil)
        }
    }

    @Test(arguments: [
        ("client/nobody/groups/set", #"{"groups":["strict"]}"#),
        ("client/192-168-1-50/groups/set", #"{"groups":["nosuch"]}"#),
        ("client/192-168-1-50/groups/set", #"{"groups":[]}"#),
        ("client/192-168-1-50/groups/set", #"{"groups":"strict"}"#),
        ("client/192-168-1-50/groups/set", #"{"groups":["strict"],"for":0}"#),
        ("client/192-168-1-50/groups/set", #"{"groups":["strict"],"colour":"red"}"#),
        ("client/192-168-1-50/groups/set", "strict"),
        ("client/192-168-1-50/pause", ""),
        ("client/192-168-1-50/pause", #"{"for":-5}"#),
        ("client/192-168-1-50/pause", #"{"minutes":5}"#),
        ("client/192-168-1-50/groups/set", #"{"groups":["strict"],"create":"yes"}"#),
        ("client/not_a..host/groups/set", #"{"groups":["strict"],"create":true}"#),
        ("other/client/192-168-1-50/pause", #"{"for":60}"#),
    ])
    func badClientCommandsAreRefusedWithoutAnyWrite(topic: String, payload: String) async throws {
        try await PiHoleFixture.run { fixture, observer in
            fixture["main"].addGroup(name: "strict")
            fixture["main"].addClient("192.168.1.50")
            _ = try await observer.command("home/pihole/refresh")
            let answer = try await observer.command("home/pihole/\(topic)", payload)
            #expect(answer["status"] == "error", "\(topic) \(payload) → \(answer)")
            #expect(fixture["main"].clientWrites == 0)
            #expect(fixture["main"].groupPutCount == 0)
            #expect(fixture.calls("main", "/api/clients").allSatisfy { $0.method == "GET" })
        }
    }
}
