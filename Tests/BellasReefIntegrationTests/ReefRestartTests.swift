import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import Testing

/// What a restart of the bridge does to Home Assistant: nothing, whichever service answers first.
/// Home Assistant deletes an entity whose discovery config is cleared, and with it the name, area
/// and icon its user gave it; a bridge that cleared the configs of the service that had not
/// answered yet wiped them at every start.
@Suite(.serialized) struct ReefRestartTests {
    static let probeConfig = "homeassistant/sensor/home2mqtt_home/reef_probe_000000be5efd_temperature/config"
    static let pumpConfig = "homeassistant/switch/home2mqtt_home/reef_outlet_\(Outlets.returnPump)/config"

    @Test(arguments: [BellasReefSimulator.Service.temperature, .outlets])
    func aServiceThatAnswersLateKeepsItsEntities(late service: BellasReefSimulator.Service) async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            let yaml = ReefFixture.yaml(fixture.simulator)
            try await fixture.runBridge(yaml: yaml) { _, observer in
                _ = try await observer.latest(Self.probeConfig)
                _ = try await observer.latest(Self.pumpConfig)
            }
            // Late beside the other service, yet within the 2 s an outlet read has to count as
            // responding (a read past it is no state: on a loaded machine 2 s late was past it).
            try await fixture.simulator.setFault(.delay(.seconds(1)), on: service)
            // Watching from before the start: a config cleared at once is seen too.
            try await Observer.watching(fixture.broker, subscribe: ["homeassistant/#", "home/reef/probe/#"]) { watcher in
                try await fixture.runBridge(yaml: yaml) { _, observer in
                    // The late service's list, and a first read of each of its things.
                    _ = try await observer.latest("home/reef/probe/display-tank") { $0["status"] == "ok" }
                    _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                    try await Task.sleep(for: .seconds(1))
                }
                let cleared = watcher.recorder.messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.payload.isEmpty }
                #expect(cleared.map(\.topic) == [])
                // Nothing is said of a probe before its first read: not an error without a reason.
                let unread = watcher.recorder.messages.filter {
                    $0.topic.hasPrefix("home/reef/probe/") && !$0.retain && JSONValue.parse($0.payload)?["status"] == "error"
                }
                #expect(unread.isEmpty)
            }
        }
    }

    /// Down at the start: its entities stay (unavailable) until it is back.
    @Test func aServiceDownAtTheStartKeepsItsEntities() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            let yaml = ReefFixture.yaml(fixture.simulator)
            try await fixture.runBridge(yaml: yaml) { _, observer in
                _ = try await observer.latest(Self.probeConfig)
            }
            try await fixture.simulator.setFault(.down, on: .temperature)
            try await Observer.watching(fixture.broker, subscribe: ["homeassistant/#"]) { watcher in
                try await fixture.runBridge(yaml: yaml) { _, observer in
                    // The first run's retained `online` comes first; the bridge's own judgement after it.
                    _ = try await observer.latest("home/reef/temperature/availability") { $0 == "offline" }
                    _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                    try await Task.sleep(for: .seconds(2))
                }
                #expect(watcher.recorder.messages.filter { $0.payload.isEmpty }.map(\.topic) == [])
            }
        }
    }
}
