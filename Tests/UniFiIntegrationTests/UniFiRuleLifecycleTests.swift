import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing
import UniFiSimulator
import UniFiTestSupport

private typealias F = UniFiSimulatorFixtures

@Suite struct UniFiRuleLifecycleTests {
    private let emmaSwitch = "homeassistant/switch/home2mqtt_home/unifi_rule_\(F.downtimeEmmaID)/config"
    private let leoSwitch = "homeassistant/switch/home2mqtt_home/unifi_rule_\(F.downtimeLeoID)/config"

    @Test func rulesRenamedAddedAndDeletedBehindTheBridgesBack() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.recorder.first(timeout: .seconds(20)) { $0.topic == leoSwitch && !$0.payload.isEmpty }
                let guest = "homeassistant/binary_sensor/home2mqtt_home/unifi_rule_\(F.derivedRuleID)/config"
                _ = try await observer.recorder.first(timeout: .seconds(5)) { $0.topic == guest && !$0.payload.isEmpty }

                fixture.simulator.rename(.aclRules, id: F.downtimeEmmaID, to: "Downtime Emily")
                fixture.simulator.delete(.firewallPolicies, id: F.downtimeLeoID)
                let newID = "5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c"
                fixture.simulator.add(F.ipv4ACLRule(id: newID, name: "Downtime Mia", index: 5), to: .aclRules)
                #expect(try await observer.command("home/unifi/refresh")["status"] == "ok")

                let emily = try await observer.latest("home/unifi/rule/downtime-emily")
                #expect(emily["id"] == .string(F.downtimeEmmaID))
                _ = try await observer.recorder.first { $0.topic == "home/unifi/rule/downtime-emma" && $0.payload.isEmpty }
                _ = try await observer.recorder.first { $0.topic == "home/unifi/rule/downtime-leo" && $0.payload.isEmpty }
                _ = try await observer.recorder.first { $0.topic == leoSwitch && $0.payload.isEmpty }
                // The entity leaves Home Assistant before its state is cleared: an empty state
                // reaching it made Home Assistant log "'value_json' is undefined".
                let order = observer.recorder.messages.filter { $0.payload.isEmpty }.map(\.topic)
                #expect(order.firstIndex(of: leoSwitch)! < order.firstIndex(of: "home/unifi/rule/downtime-leo")!, "\(order)")
                _ = try await observer.latest("home/unifi/rule/downtime-mia")
                let mia = "homeassistant/switch/home2mqtt_home/unifi_rule_\(newID)/config"
                _ = try await observer.recorder.first { $0.topic == mia && !$0.payload.isEmpty }
                // Renamed, the switch keeps its unique id and follows the new key.
                let renamed = try await observer.latest(emmaSwitch) { $0["command_topic"] == "home/unifi/rule/downtime-emily/set" }
                #expect(renamed["name"] == "Downtime Emily")
                let index = try await observer.latest("home/unifi/rules") { $0["downtime-mia"] != nil }
                #expect(Set((index.objectValue ?? [:]).keys) == ["downtime-emily", "downtime-tablet", "downtime-guest-derived", "downtime-mia"])
            }
        }
    }

    /// The rules' first read loses its answer (the connection closed mid-response), with an hour
    /// between polls: the bridge reads again within seconds, not an hour later.
    @Test func aLostAnswerIsReadAgainSoonNotAfterTheWholeInterval() async throws {
        try await UniFiFixture.withSimulator(prepare: { simulator in
            simulator.addDowntimeExamples()
            simulator.inject(.dropConnections, pathContaining: "acl-rules")
        }) { fixture in
            let yaml = fixture.yaml().replacingOccurrences(of: "poll_interval: 5", with: "poll_interval: 3600")
            try await fixture.runBridge(yaml: yaml) { observer in
                _ = try await observer.latest("home/unifi/controller/home") { $0["error"] != .null && $0["error"] != nil }
                let failedAt = ContinuousClock.now
                fixture.simulator.clearFaults()
                _ = try await observer.latest("home/unifi/rules", timeout: .seconds(30)) { $0["downtime-leo"] != nil }
                #expect(ContinuousClock.now - failedAt < .seconds(20), "read again after \(ContinuousClock.now - failedAt)")
                #expect(try await observer.latest("home/unifi/availability") == "online")
            }
        }
    }

    /// A rule made on the console while the bridge pages through 250 shifts the pages under it: the
    /// bridge once saw a rule twice and died on a duplicate key. It reads on, every rule once.
    @Test func aRuleMadeWhileTheBridgeReadsThePagesIsNoCrash() async throws {
        try await UniFiFixture.withSimulator(prepare: { simulator in
            simulator.addDowntimeExamples()
            simulator.addGeneratedACLRules(count: 250, namePrefix: "downtime-kid")
            simulator.inject(.listChangesBetweenPages)
        }) { fixture in
            try await fixture.runBridge { observer in
                let index = try await observer.latest("home/unifi/rules", timeout: .seconds(20)) { $0["downtime-kid-250"] != nil }
                #expect(index["downtime-kid-1"] != nil && index["downtime-emma"] != nil)
                #expect(try await observer.command("home/unifi/refresh")["status"] == "ok")
                #expect(try await observer.command("home/unifi/rule/downtime-kid-7/set", "OFF")["status"] == "ok")
            }
        }
    }

    /// Made on the console a moment ago, not yet read by a poll: the command reads the console
    /// again rather than refuse it (as it does for a command kept by the broker while the bridge
    /// was away, which arrives before the first read).
    @Test func aRuleMadeAMomentAgoCanBeSwitchedAtOnce() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge { observer in
                _ = try await observer.latest("home/unifi/rule/downtime-emma")
                let newID = "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d"
                fixture.simulator.add(F.ipv4ACLRule(id: newID, name: "Downtime Noah", index: 6, enabled: false), to: .aclRules)
                let answer = try await observer.command("home/unifi/rule/downtime-noah/set", "ON")
                #expect(answer["status"] == "ok", "\(answer)")
                #expect(fixture.simulator.rule(.aclRules, id: newID)?["enabled"] == true)
                let unknown = try await observer.command("home/unifi/rule/downtime-nobody/set", "ON")
                #expect(unknown["error"]?.stringValue?.hasPrefix("unknown rule 'downtime-nobody'") == true, "\(unknown)")
            }
        }
    }

    @Test func aTimedChangeIsRestoredAlsoAcrossARestart() async throws {
        try await UniFiFixture.withSimulator { fixture in
            let stateDir = temporaryStateDirectory()
            let yaml = "bridge:\n  state_dir: \(stateDir)\n" + fixture.yaml()
            try await fixture.runBridge(yaml: yaml) { observer in
                _ = try await observer.latest("home/unifi/rules") { $0["downtime-emma"] != nil }
                let answer = try await observer.command("home/unifi/rule/downtime-emma/set", #"{"enabled":false,"for":4}"#)
                #expect(answer["data"]?["enabled"] == false)
                #expect(answer["data"]?["restore_to"] == true)
                #expect(answer["data"]?["restore_at"]?.stringValue != nil)
            }
            // The bridge is gone; the promise is on disk.
            let saved = try String(contentsOfFile: stateDir + "/timers.json", encoding: .utf8)
            #expect(saved.contains(F.downtimeEmmaID))
            #expect(fixture.simulator.rule(.aclRules, id: F.downtimeEmmaID)?["enabled"] == false)
            // Watching from before the second start, live messages only: the rule's state the first
            // run left can be the one from before the command, which already says enabled.
            try await Observer.watching(fixture.broker, subscribe: ["home/unifi/rule/downtime-emma"]) { watcher in
                try await fixture.runBridge(yaml: yaml) { _ in
                    _ = try await watcher.latest("home/unifi/rule/downtime-emma", live: true, timeout: .seconds(10)) {
                        $0["enabled"] == true && $0["restore_at"] == .null
                    }
                    #expect(fixture.simulator.rule(.aclRules, id: F.downtimeEmmaID)?["enabled"] == true)
                    #expect(fixture.simulator.putBodies(pathContaining: F.downtimeEmmaID).map { $0["enabled"] } == [false, true])
                }
            }
            try await waitUntil("the timer is gone from the file") {
                (try? String(contentsOfFile: stateDir + "/timers.json", encoding: .utf8))?.contains(F.downtimeEmmaID) == false
            }
        }
    }

    /// A plain command replaces a pending restore: nothing is restored later.
    @Test func aPlainCommandCancelsAPendingRestore() async throws {
        let clock = ManualClock()
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge(clock: clock) { observer in
                _ = try await observer.latest("home/unifi/rules") { $0["downtime-tablet"] != nil }
                _ = try await observer.command("home/unifi/rule/downtime-tablet/set", #"{"enabled":true,"for":2}"#)
                let answer = try await observer.command("home/unifi/rule/downtime-tablet/set", "ON")
                #expect(answer["data"]?["restore_at"] == .null)
                try await clock.advance(by: .seconds(2))
                #expect(fixture.simulator.putBodies(pathContaining: F.downtimeTabletID).count == 2)
                #expect(fixture.simulator.rule(.aclRules, id: F.downtimeTabletID)?["enabled"] == true)
            }
        }
    }

    @Test func aWrongKeyMeansOfflineWithAClearError() async throws {
        try await UniFiFixture.withSimulator { fixture in
            try await fixture.runBridge(yaml: fixture.yaml(apiKey: "wrong")) { observer in
                let state = try await observer.latest("home/unifi/controller/home") { $0["error"] != .null }
                #expect(state["error"]?.stringValue?.lowercased().contains("api key") == true, "\(state)")
                #expect(try await observer.latest("home/unifi/controller/home/availability") == "offline")
                #expect(try await observer.latest("home/unifi/availability") == "offline")
            }
        }
    }

    @Test func aCertificateThatIsNotThePinIsRefusedShowingBothFingerprints() async throws {
        try await UniFiFixture.withSimulator { fixture in
            let wrong = String(repeating: "AB:", count: 31) + "AB"
            let yaml = fixture.yaml().replacingOccurrences(of: fixture.simulator.certificate!.opensslFingerprint, with: wrong)
            try await fixture.runBridge(yaml: yaml) { observer in
                let state = try await observer.latest("home/unifi/controller/home") { $0["error"] != .null }
                let error = state["error"]?.stringValue ?? ""
                #expect(error.contains(wrong), "\(error)")
                #expect(error.contains(fixture.simulator.certificate!.opensslFingerprint), "\(error)")
                #expect(fixture.simulator.requests.isEmpty, "nothing is sent to a console that is not the pinned one")
            }
        }
    }
}
