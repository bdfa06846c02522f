import BridgeTestSupport
import Foundation
import JSONDocument
import MQTTTestSupport
import Testing
import UniFiSimulator

/// Issue 28, item 7: the bridge as a real Home Assistant (2025.4.4, scripts/install-home-assistant)
/// sees it, through its websocket API. One Home Assistant for the suite, the tests one at a time:
/// each restarts or changes what the next one looks at.
@Suite(.serialized, .homeAssistant)
struct HomeAssistantTests {
    /// The command topics of the switches the tests turn, rename or take away.
    static let switchesUsed = [
        "home/reef/outlet/heater/set", "home/reef/outlet/skimmer/set", "home/unifi/rule/downtime-emma/set",
        "home/unifi/rule/downtime-leo/set", "home/pihole/main/group/kids/set", "home/scene/bedtime/set",
    ]

    @Test func everyEntityTheBridgeDeclaresIsRegisteredWithoutAWarning() async throws {
        let world = try HomeAssistantWorld.current
        // Runtime entities are declared as their upstreams answer: once those the tests use are,
        // every upstream has answered (the Pi-hole's groups with its statistics, the last).
        for topic in Self.switchesUsed {
            _ = try await world.config(commandTopic: topic)
        }
        let declared = Set(world.declaredConfigs().values.compactMap { $0["unique_id"]?.stringValue })
        #expect(declared.count > 40, "the bridge declared \(declared.count) entities")
        var missing: Set<String> = []
        do {
            try await waitUntil("Home Assistant to register every declared entity", timeout: .seconds(60), pollInterval: .milliseconds(500)) {
                missing = declared.subtracting(try await world.homeAssistant.mqttEntities().keys)
                return missing.isEmpty
            }
        } catch {
            Issue.record("not registered by Home Assistant: \(missing.sorted())")
        }
        // What Home Assistant makes of the entities' retained states is in its log too.
        try await world.homeAssistantHasCaughtUp()
        let problems = try await world.homeAssistant.mqttProblems(since: world.started)
        #expect(problems.isEmpty, "Home Assistant logged:\n\(problems.joined(separator: "\n"))")
        let setup = try await world.homeAssistant.setupProblems()
        #expect(setup.isEmpty, "Home Assistant's setup logged (scripts/install-home-assistant missed a requirement?):\n\(setup.joined(separator: "\n"))")
    }

    /// The bridge's health on its own device and on each upstream's: the counts enabled, what
    /// moves every minute (uptime, memory, each last success) off until a user turns it on.
    @Test func theBridgesHealthShowsOnItsDevices() async throws {
        let world = try HomeAssistantWorld.current
        let restores = try await world.entityID(uniqueID: "home2mqtt_home_bridge_pending_restores")
        let lastError = try await world.entityID(uniqueID: "home2mqtt_home_pihole_main_last_error")
        let entries = try await world.homeAssistant.mqttEntities()
        for uniqueID in ["bridge_uptime", "bridge_resident_memory", "pihole_main_last_success", "reef_outlets_last_success"] {
            #expect(entries["home2mqtt_home_\(uniqueID)"]?["disabled_by"] == "integration", "\(uniqueID)")
        }
        for uniqueID in ["bridge_pending_restores", "bridge_mqtt_reconnects", "pihole_main_last_error", "unifi_home_last_error"] {
            #expect(entries["home2mqtt_home_\(uniqueID)"]?["disabled_by"] == .null, "\(uniqueID)")
        }
        var states: [String: JSONValue] = [:]
        try await waitUntil("the health sensors' states", timeout: .seconds(20), pollInterval: .milliseconds(500)) {
            let all = try await world.homeAssistant.websocket(["type": "get_states"]).arrayValue ?? []
            states = Dictionary(all.compactMap { state in state["entity_id"]?.stringValue.map { ($0, state) } }) { a, _ in a }
            return Int(states[restores]?["state"]?.stringValue ?? "") != nil
        }
        #expect(states[lastError]?["state"]?.stringValue != nil, "\(String(describing: states[lastError]))")
    }

    @Test func aSwitchTurnedInHomeAssistantReachesTheSimulator() async throws {
        let world = try HomeAssistantWorld.current
        let since = Date()
        let heater = try await world.entityID(commandTopic: "home/reef/outlet/heater/set")
        let heaterID = try #require(world.upstreams.reef.outlets.first { $0.name == "Heater" }?.id)
        let heaterWasOn = try #require(world.upstreams.reef.outlet(heaterID)).isOn
        try await world.turn(heater, on: !heaterWasOn)
        try await waitUntil("the Reef simulator's heater to turn \(heaterWasOn ? "off" : "on")", timeout: .seconds(20)) {
            world.upstreams.reef.outlet(heaterID)?.isOn == !heaterWasOn
        }

        let rule = try await world.entityID(commandTopic: "home/unifi/rule/downtime-emma/set")
        let simulator = world.upstreams.unifi.simulator
        let emma = UniFiSimulatorFixtures.downtimeEmmaID
        let ruleWasEnabled = try #require(simulator.rule(.aclRules, id: emma)?["enabled"]?.boolValue as Bool?)
        try await world.turn(rule, on: !ruleWasEnabled)
        try await waitUntil("the UniFi simulator's rule to be \(ruleWasEnabled ? "disabled" : "enabled")", timeout: .seconds(20)) {
            simulator.rule(.aclRules, id: emma)?["enabled"]?.boolValue == !ruleWasEnabled
        }

        // A scene's switch: every part on, and off again, from Home Assistant.
        let scene = try await world.entityID(commandTopic: "home/scene/bedtime/set")
        let tablet = UniFiSimulatorFixtures.downtimeTabletID
        try await world.turn(scene, on: true)
        try await waitUntil("the scene to enable the tablet's rule", timeout: .seconds(20)) {
            simulator.rule(.aclRules, id: tablet)?["enabled"]?.boolValue == true
        }
        _ = try await world.observer.latest("home/scene/bedtime") { $0["state"] == "on" }
        try await world.turn(scene, on: false)
        try await waitUntil("the scene's end to disable it again", timeout: .seconds(20)) {
            simulator.rule(.aclRules, id: tablet)?["enabled"]?.boolValue == false
        }
        let problems = try await world.homeAssistant.mqttProblems(since: since)
        #expect(problems.isEmpty, "Home Assistant logged:\n\(problems.joined(separator: "\n"))")
    }

    /// Issue 28, item 6: Home Assistant deletes an entity whose config is cleared, and with it
    /// what the user gave it; a restart of the bridge must clear none.
    @Test func aNameGivenInHomeAssistantSurvivesARestartOfTheBridge() async throws {
        let world = try HomeAssistantWorld.current
        let since = Date()
        let declared = world.declaredConfigs()
        let probe = try #require(
            declared.values.first { ($0["unique_id"]?.stringValue ?? "").contains("reef_probe_") },
            "a Reef probe's sensor is declared")["unique_id"]?.stringValue
        let named: [(uniqueID: String, name: String)] = [
            (try await world.uniqueID(commandTopic: "home/reef/outlet/heater/set"), "Tank heater (mine)"),
            (try #require(probe), "Display tank (mine)"),
            (try await world.uniqueID(commandTopic: "home/unifi/rule/downtime-emma/set"), "Emma's evenings (mine)"),
        ]
        var entityIDs: [String: String] = [:]
        for (uniqueID, name) in named {
            let entityID = try await world.entityID(uniqueID: uniqueID)
            entityIDs[uniqueID] = entityID
            _ = try await world.homeAssistant.websocket(["type": "config/entity_registry/update", "entity_id": .string(entityID), "name": .string(name)])
        }

        let recordedBefore = world.observer.recorder.messages.count
        // The real controller's services answer a starting bridge in any order: here the outlets
        // service answers last, seconds after the temperature service (issue 28 saw the bridge
        // clear every outlet's config then, and Home Assistant drop what the user gave them).
        let reef = world.upstreams.reef
        try await reef.setFault(.delay(.seconds(4)), on: .outlets)
        do {
            try await world.restartBridge()
            // Settled: the new process has read the outlets and the probes, and every config
            // declared before the restart is declared again.
            try await waitUntil("the restarted bridge to serve and declare every entity again", timeout: .seconds(30)) {
                let since = world.observer.recorder.messages.dropFirst(recordedBefore)
                return since.contains { $0.topic == "home/reef/outlet/heater" } && since.contains { $0.topic.hasPrefix("home/reef/probe/") }
                    && Set(world.declaredConfigs().keys).isSuperset(of: declared.keys)
            }
        } catch {
            // The next test's outlet must not answer slowly.
            try await reef.setFault(nil, on: .outlets)
            throw error
        }
        try await reef.setFault(nil, on: .outlets)
        let clearedByTheRestart = world.observer.recorder.messages.dropFirst(recordedBefore)
            .filter { HomeAssistantWorld.isDiscoveryConfig($0.topic) && $0.payload.isEmpty }.map(\.topic)
        #expect(
            clearedByTheRestart.isEmpty,
            "\(clearedByTheRestart.count) configs cleared by the restart, among them \(clearedByTheRestart.prefix(3))")
        let uniqueIDs = Set(declared.values.compactMap { $0["unique_id"]?.stringValue })
        try await waitUntil("Home Assistant to have every entity again", timeout: .seconds(60), pollInterval: .milliseconds(500)) {
            uniqueIDs.isSubset(of: try await world.homeAssistant.mqttEntities().keys)
        }
        let entities = try await world.homeAssistant.mqttEntities()
        for (uniqueID, name) in named {
            #expect(entities[uniqueID]?["name"]?.stringValue == name, "\(uniqueID): \(String(describing: entities[uniqueID]))")
            #expect(entities[uniqueID]?["entity_id"]?.stringValue == entityIDs[uniqueID])
        }
        let problems = try await world.homeAssistant.mqttProblems(since: since)
        #expect(problems.isEmpty, "Home Assistant logged:\n\(problems.joined(separator: "\n"))")
    }

    /// Issue 28, item 5: a rule, an outlet and a group removed upstream leave Home Assistant
    /// without a template error about their cleared state.
    @Test func thingsRemovedUpstreamDisappearFromHomeAssistantWithNothingLogged() async throws {
        let world = try HomeAssistantWorld.current
        let since = Date()
        // Each of the three is declared and registered before it goes.
        let commandTopics = [
            "home/unifi/rule/downtime-leo/set", "home/reef/outlet/skimmer/set", "home/pihole/main/group/kids/set",
        ]
        var going: [String: String] = [:]  // unique id → what it is
        for topic in commandTopics {
            let uniqueID = try await world.uniqueID(commandTopic: topic)
            _ = try await world.entityID(uniqueID: uniqueID)
            going[uniqueID] = topic
        }
        world.upstreams.unifi.simulator.delete(.firewallPolicies, id: UniFiSimulatorFixtures.downtimeLeoID)
        world.upstreams.reef.removeOutlet(HomeAssistantWorld.extraOutlet.id)
        world.upstreams.piHole.removeGroup(name: HomeAssistantWorld.extraGroup)

        // Every config the bridge clears for them (an outlet has a switch and sensors), and Home
        // Assistant's registry without any of them.
        do {
            try await waitUntil("the bridge to clear the removed things' configs", timeout: .seconds(30)) {
                Set(world.clearedConfigs().values.compactMap { $0["unique_id"]?.stringValue }).isSuperset(of: going.keys)
            }
        } catch {
            let cleared = Set(world.clearedConfigs().values.compactMap { $0["unique_id"]?.stringValue })
            Issue.record("the bridge kept declaring: \(going.filter { !cleared.contains($0.key) }.values.sorted())")
        }
        let cleared = Set(world.clearedConfigs().values.compactMap { $0["unique_id"]?.stringValue })
        var left: Set<String> = []
        do {
            try await waitUntil("Home Assistant to remove the entities", timeout: .seconds(30), pollInterval: .milliseconds(500)) {
                left = cleared.intersection(try await world.homeAssistant.mqttEntities().keys)
                return left.isEmpty
            }
        } catch {
            Issue.record("still registered in Home Assistant: \(left.sorted())")
        }
        let problems = try await world.homeAssistant.mqttProblems(since: since)
        #expect(problems.isEmpty, "Home Assistant logged:\n\(problems.joined(separator: "\n"))")
    }
}
