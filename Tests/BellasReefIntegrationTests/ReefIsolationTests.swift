import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import Testing

/// One slow or dead part never holds back or darkens the others.
@Suite struct ReefIsolationTests {
    @Test func aSlowPlugDoesNotHoldBackTheOtherOutletsOrTheProbes() async throws {
        var outlets = SimulatedOutlet.observed
        outlets[1].slowness = .seconds(6)
        outlets.append(SimulatedOutlet(name: "Skimmer", role: "skimmer", isOn: true, ratedPowerW: 12))
        try await ReefFixture.run(outlets: outlets, settings: ["request_timeout": "10"]) { _, observer in
            let started = ContinuousClock.now
            _ = try await observer.latest("home/reef/outlet/heater", timeout: .seconds(20)) { $0["state"] == "off" }
            _ = try await observer.latest("home/reef/outlet/skimmer", timeout: .seconds(20)) { $0["state"] == "on" }
            _ = try await observer.latest("home/reef/probe/sump", timeout: .seconds(20)) { $0["status"] == "ok" }
            _ = try await observer.latest("home/reef/system", timeout: .seconds(20)) { $0["model"] != nil && $0["model"] != .null }
            let others = ContinuousClock.now - started
            // The slow plug is shown as not responding before it answers…
            _ = try await observer.latest("home/reef/outlet/return-pump", timeout: .seconds(20)) {
                $0["responding"] == false && $0["error"]?.stringValue?.hasPrefix("no answer within") == true
            }
            // …and its answer, seconds late, is still not taken for the truth.
            let late = try await observer.latest("home/reef/outlet/return-pump", timeout: .seconds(20)) {
                $0["error"]?.stringValue?.hasPrefix("the plug took") == true
            }
            let slow = ContinuousClock.now - started
            #expect(late["state"] == "unknown")
            #expect(others + .seconds(3) < slow, "others after \(others), the slow plug after \(slow)")
        }
    }

    @Test func aDeadTemperatureServiceDarkensOnlyItself() async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/probe/sump") { $0["status"] == "ok" }
            _ = try await observer.latest("home/reef/outlets/availability") { $0 == "online" }
            try await fixture.simulator.setFault(.down, on: .temperature)
            _ = try await observer.latest("home/reef/temperature/availability") { $0 == "offline" }
            let probe = try await observer.latest("home/reef/probe/sump") { $0["status"] == "error" }
            #expect(probe["value"] == .null)
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["power_w"] == 24.5 }
            #expect(try await observer.latest("home/reef/availability") == "online")
            for service in ["core", "outlets"] {
                #expect(!observer.recorder.messages.contains { $0.topic == "home/reef/\(service)/availability" && $0.payloadString == "offline" })
            }
            try await fixture.simulator.setFault(nil, on: .temperature)
            _ = try await observer.latest("home/reef/temperature/availability", timeout: .seconds(15)) { $0 == "online" }
            _ = try await observer.latest("home/reef/probe/sump") { $0["status"] == "ok" }
        }
    }

    @Test func outletsAndProbesThatComeAndGoAddAndRemoveTheirEntities() async throws {
        try await ReefFixture.run { fixture, observer in
            let heaterConfig = "homeassistant/switch/home2mqtt_home/reef_outlet_heater/config"
            _ = try await observer.latest(heaterConfig) { $0["command_topic"] == "home/reef/outlet/heater/set" }
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "off" }
            fixture.simulator.addOutlet(SimulatedOutlet(name: "Skimmer", isOn: true, ratedPowerW: 12))
            fixture.simulator.removeOutlet(Outlets.heater)
            fixture.simulator.addProbe(SimulatedProbe(id: 9, name: "Frag Tank", address: "000000aa0001", celsius: 24))
            _ = try await observer.latest("home/reef/outlet/skimmer") { $0["state"] == "on" }
            _ = try await observer.latest("homeassistant/switch/home2mqtt_home/reef_outlet_skimmer/config") { $0["name"] == "Skimmer" }
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_outlet_skimmer_power/config") { $0["unit_of_measurement"] == "W" }
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_probe_frag_tank_temperature/config") { $0["device_class"] == "temperature" }
            // The heater went away behind the bridge's back: its state and its entities are cleared.
            _ = try await observer.latest("home/reef/outlet/heater") { $0 == "" }
            _ = try await observer.latest(heaterConfig) { $0 == "" }
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_outlet_heater_energy/config") { $0 == "" }
            #expect(try await observer.latest("home/reef/outlets")["heater"] == nil)
            #expect(try await observer.command("home/reef/outlet/heater/set", "ON")["error"]?.stringValue?.hasPrefix("unknown outlet 'heater'") == true)
        }
    }
}
