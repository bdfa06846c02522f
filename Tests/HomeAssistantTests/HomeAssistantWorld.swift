import AllUpstreamsTestSupport
import BellasReefSimulator
import BridgeTestSupport
import Foundation
import JSONDocument
import MQTTTestSupport
import Synchronization
import Testing

/// What the suite's tests share, started once for all of them: Home Assistant takes most of the
/// suite's time to start. A broker, the three simulators, the real bridge executable wired to
/// them with discovery on, Home Assistant with MQTT on the same broker, and an observer of both
/// the bridge's topics and the discovery configs.
final class HomeAssistantWorld: Sendable {
    let upstreams: AllUpstreams
    let homeAssistant: HomeAssistant
    let observer: Observer
    let configFile: String
    /// When Home Assistant was started: what it logs from then on is the suite's to judge.
    let started: Date
    private let bridgeProcess: Mutex<BridgeProcess>

    /// What the removal test takes away: things of each integration that no other test uses.
    static let extraOutlet = SimulatedOutlet(id: "7e1f5a9c-2b1d-4c7e-9a51-3d2f6c1b8e40", name: "Skimmer", role: "skimmer")
    static let extraGroup = "kids"

    var bridge: BridgeProcess { bridgeProcess.withLock { $0 } }

    private init(
        upstreams: AllUpstreams, homeAssistant: HomeAssistant, observer: Observer, configFile: String, started: Date,
        bridge: BridgeProcess
    ) {
        self.upstreams = upstreams
        self.homeAssistant = homeAssistant
        self.observer = observer
        self.configFile = configFile
        self.started = started
        bridgeProcess = Mutex(bridge)
    }

    /// Starts everything, runs `body`, stops everything (also when `body` throws).
    static func run(_ body: (HomeAssistantWorld) async throws -> Void) async throws {
        try HomeAssistant.checkInstalled()
        try await AllUpstreams.run { upstreams in
            // Issue 28, item 4: an FTL whose core and web versions are not known yet.
            upstreams.piHole.setOnlyFTLVersionKnown(true)
            _ = upstreams.piHole.addGroup(name: extraGroup)
            upstreams.reef.addOutlet(extraOutlet)
            // The port is held until Home Assistant binds beside the hold (aiohttp reuses the address).
            try await LoopbackPort.withHeld { port in
                let started = Date()
                let homeAssistant = try await HomeAssistant(port: port)
                // Groups are read every 5 s, not every minute: the removal test waits for one to go.
                // A scene: its switch and "until" sensor are entities like the others.
                let scene = "scenes:\n  - name: Bedtime\n    parts:\n      - unifi_rule: Downtime tablet\n        enabled: true\n"
                let configFile = try upstreams.configFile(piHoleExtra: "  stats_interval: 5\n", sections: scene)
                let bridge = try BridgeProcess(["run", "--config", configFile])
                defer {
                    bridge.child.terminate(signal: SIGKILL)
                }
                do {
                    try await homeAssistant.onboard(brokerPort: upstreams.broker.port)
                    try await Observer.watching(upstreams.broker, subscribe: ["home/#", "homeassistant/#"]) { observer in
                        let world = HomeAssistantWorld(
                            upstreams: upstreams, homeAssistant: homeAssistant, observer: observer, configFile: configFile,
                            started: started, bridge: bridge)
                        defer { world.bridge.child.terminate(signal: SIGKILL) }
                        try await AllUpstreams.waitUntilServing(observer)
                        try await body(world)
                    }
                } catch {
                    await homeAssistant.stop()
                    throw error
                }
                await homeAssistant.stop()
            }
        }
    }

    // MARK: - The bridge's discovery configs, as the broker keeps them

    /// The retained `homeassistant/+/+/+/config` messages now on the broker, by topic: the
    /// latest on each topic unless an empty message cleared it.
    func declaredConfigs() -> [String: JSONValue] {
        var latest: [String: [UInt8]] = [:]
        for message in observer.recorder.messages where Self.isDiscoveryConfig(message.topic) {
            latest[message.topic] = message.payload
        }
        return latest.compactMapValues { $0.isEmpty ? nil : JSONValue.parse($0) }
    }

    /// Every config once seen and now cleared, with its last content.
    func clearedConfigs() -> [String: JSONValue] {
        var lastContent: [String: JSONValue] = [:]
        var cleared: Set<String> = []
        for message in observer.recorder.messages where Self.isDiscoveryConfig(message.topic) {
            if message.payload.isEmpty {
                cleared.insert(message.topic)
            } else {
                cleared.remove(message.topic)
                lastContent[message.topic] = JSONValue.parse(message.payload)
            }
        }
        return lastContent.filter { cleared.contains($0.key) }
    }

    static func isDiscoveryConfig(_ topic: String) -> Bool {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        return levels.count == 5 && levels[0] == "homeassistant" && levels[4] == "config"
    }

    /// The declared config whose command topic is `commandTopic`, once the bridge has declared it.
    func config(commandTopic: String) async throws -> JSONValue {
        var found: JSONValue?
        try await waitUntil("a discovery config with command topic \(commandTopic)", timeout: .seconds(30)) {
            found = declaredConfigs().values.first { $0["command_topic"]?.stringValue == commandTopic }
            return found != nil
        }
        return found!
    }

    /// The entity id Home Assistant gave the entity of `uniqueID`, once it has registered it.
    func entityID(uniqueID: String) async throws -> String {
        var entityID: String?
        try await waitUntil("Home Assistant to register \(uniqueID)", timeout: .seconds(60), pollInterval: .milliseconds(500)) {
            entityID = try await homeAssistant.mqttEntities()[uniqueID]?["entity_id"]?.stringValue
            return entityID != nil
        }
        return entityID!
    }

    /// The unique id of the declared config whose command topic is `commandTopic`.
    func uniqueID(commandTopic: String) async throws -> String {
        let config = try await config(commandTopic: commandTopic)
        guard let uniqueID = config["unique_id"]?.stringValue else { throw TestSupportError("no unique_id in \(config)") }
        return uniqueID
    }

    /// The entity id of the entity commanded on `commandTopic`, once Home Assistant has it.
    func entityID(commandTopic: String) async throws -> String {
        try await entityID(uniqueID: try await uniqueID(commandTopic: commandTopic))
    }

    /// Turns a switch on or off in Home Assistant, as its user interface would.
    func turn(_ entityID: String, on: Bool) async throws {
        _ = try await homeAssistant.websocket([
            "type": "call_service", "domain": "switch", "service": .string(on ? "turn_on" : "turn_off"),
            "target": ["entity_id": .string(entityID)],
        ])
    }

    /// Returns once Home Assistant has taken in every message the broker had for it before this
    /// call: the warnings those cause are then in its log. A barrier: a sensor declared now, whose
    /// retained state comes after every earlier subscription's (one connection, in order), is
    /// seen in Home Assistant's states; then it is taken away again (its config first).
    func homeAssistantHasCaughtUp() async throws {
        let id = "home2mqtt_test_barrier_\(UUID().uuidString.prefix(8).lowercased())"
        let stateTopic = "home2mqtt-test/\(id)"
        let configTopic = "homeassistant/sensor/\(id)/config"
        try await observer.send(stateTopic, "caught-up", retain: true)
        try await observer.send(configTopic, #"{"unique_id":"\#(id)","name":"barrier","state_topic":"\#(stateTopic)"}"#)
        let entityID = try await entityID(uniqueID: id)
        try await waitUntil("Home Assistant to show the barrier's state", timeout: .seconds(30), pollInterval: .milliseconds(500)) {
            let states = try await homeAssistant.websocket(["type": "get_states"]).arrayValue ?? []
            return states.contains { $0["entity_id"]?.stringValue == entityID && $0["state"] == "caught-up" }
        }
        try await observer.send(configTopic, "")
        try await observer.send(stateTopic, "", retain: true)
    }

    // MARK: - The bridge process

    /// Stops the bridge with SIGTERM and starts it again on the same configuration, as a
    /// `systemctl restart` would; returns once the new process has said it is online.
    func restartBridge() async throws {
        let old = bridge
        old.signal(SIGTERM)
        let result = try await old.finish(timeout: .seconds(20))
        #expect(result.status == 0, "the bridge's exit: \(result.stderr.suffix(2000))")
        let recordedBefore = observer.recorder.messages.count
        let new = try BridgeProcess(["run", "--config", configFile])
        bridgeProcess.withLock { $0 = new }
        // Its `online` after the restart, then its three upstreams served anew.
        try await waitUntil("the restarted bridge to say online", timeout: .seconds(30)) {
            observer.recorder.messages.dropFirst(recordedBefore).contains { $0.topic == "home/bridge/state" && $0.payloadString == "online" }
        }
    }
}

/// Runs the suite inside one `HomeAssistantWorld`, reached by its tests as `HomeAssistantWorld.current`.
struct WithHomeAssistant: SuiteTrait, TestScoping {
    @TaskLocal static var world: HomeAssistantWorld?

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await HomeAssistantWorld.run { world in
            try await Self.$world.withValue(world) { try await function() }
        }
    }
}

extension Trait where Self == WithHomeAssistant {
    static var homeAssistant: Self { WithHomeAssistant() }
}

extension HomeAssistantWorld {
    static var current: HomeAssistantWorld {
        get throws {
            guard let world = WithHomeAssistant.world else { throw TestSupportError("no HomeAssistantWorld: the suite needs the .homeAssistant trait") }
            return world
        }
    }
}
