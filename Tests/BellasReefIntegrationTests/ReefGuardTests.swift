import BellasReefIntegration
import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// The tank's guard against probe readings that go high, low and stop.
@Suite(.serialized) struct ReefGuardTests {
    static let display = "000000bd3685"
    static let guardYAML = """
          guard:
            - probe: Display Tank
              low: 24
              high: 27
              hysteresis: 0.3
              stale_after: 5

        """

    /// On virtual time: each advance of a second is a reading.
    @Test func readingsThatGoHighLowAndStopRaiseTheirAlarms() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            let clock = fixture.virtualClock
            try await fixture.runBridge(yaml: ReefFixture.yaml(fixture.simulator) + Self.guardYAML) { fixture, observer in
                let ok = try await observer.latest("home/reef/alarm/display-tank") { $0["state"] == "ok" }
                #expect(ok["limits"]?["high"] == 27)
                let sensor = try await observer.latest("homeassistant/binary_sensor/home2mqtt_home/reef_alarm_display_tank/config")
                #expect(sensor["device_class"] == "problem")

                fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 28.4 }
                try await clock.advance(by: .seconds(1))
                let high = try await observer.latest("home/reef/alarm/display-tank") { $0["state"] == "high" }
                #expect(high["value"] == 28.4)
                _ = try await observer.latest("home/bridge/event") { $0["type"] == "probe_alarm" && $0["data"]?["alarm"]?["state"] == "high" }

                fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 23.1 }
                try await clock.advance(by: .seconds(1))
                _ = try await observer.latest("home/reef/alarm/display-tank") { $0["state"] == "low" }

                // The temperature service goes away: the probe's reads fail (`error`), its last
                // reading ages, and it goes stale once that is older than `stale_after`, not before.
                try await fixture.simulator.setFault(.down, on: .temperature)
                for _ in 1...5 { try await clock.advance(by: .seconds(1)) }
                #expect(try await observer.latest("home/reef/alarm/display-tank")["state"] == "error")
                try await clock.advance(by: .seconds(1))
                let stale = try await observer.latest("home/reef/alarm/display-tank") { $0["state"] == "stale" }
                #expect(stale["value"] == .null, "a stale probe shows no value as if fresh")

                try await fixture.simulator.setFault(nil, on: .temperature)
                fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 25.5 }
                try await clock.advance(by: .seconds(5))
                _ = try await observer.latest("home/reef/alarm/display-tank") { $0["state"] == "ok" }
            }
        }
    }

    /// A start ends no alarm: a probe within its limits is published `ok`, with no `probe_alarm`
    /// event ("back within its limits") before it, at the first start or the next.
    @Test func aStartSendsNoAlarmEvent() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            let yaml = "bridge:\n  state_dir: \(temporaryStateDirectory())\n" + ReefFixture.yaml(fixture.simulator) + Self.guardYAML
            // Subscribed before each start: an event goes out before the state of the same judging.
            let events = try await Observer(fixture.broker, subscribe: ["home/bridge/event", "home/reef/alarm/#"])
            for start in 1...2 {
                try await fixture.runBridgeWithoutObserver(yaml: yaml) {
                    try await waitUntil("the alarm judged at start \(start)") {
                        events.recorder.messages.count { $0.topic == "home/reef/alarm/display-tank" && !$0.retain } >= start
                    }
                }
            }
            let alarms = events.recorder.messages.filter { JSONValue.parse($0.payload)?["type"] == "probe_alarm" }
            #expect(alarms.isEmpty, "\(alarms.map(\.payloadString))")
            await events.disconnect()
        }
    }

    @Test(arguments: [
        ("    - probe: Sump\n      low: 27\n      high: 24\n", "reef.guard[0].high"),
        ("    - probe: Sump\n", "reef.guard[0].low"),
        ("    - probe: Sump\n      low: 24\n      high: 25\n      hysteresis: 0.6\n", "reef.guard[0].hysteresis"),
        ("    - probe: Sump\n      high: hot\n", "reef.guard[0].high"),
        ("    - probe: Sump\n      high: 27\n      colour: red\n", "reef.guard[0]"),
    ])
    func aBadGuardStopsTheStartNamingItsKey(guardItem: String, key: String) async throws {
        #expect(reefConfigurationRefuses("guard", guardItem, naming: key))
    }
}
