import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import Testing

/// One slow or dead part never holds back or darkens the others.
@Suite(.serialized) struct ReefIsolationTests {
    /// How long after `started` a message on `topic` satisfying `predicate` first arrived (any
    /// message since the first `seen`, not only the latest: later ones may have replaced it by the
    /// time it is looked at). Earlier ones do not count: on a loaded machine the start's own reads
    /// can be slow too.
    private func arrival(
        _ observer: Observer, _ topic: String, since started: (at: ContinuousClock.Instant, seen: Int), _ predicate: @escaping (JSONValue) -> Bool
    ) async throws -> Duration {
        try await waitUntil("a matching message on \(topic)", timeout: .seconds(20)) {
            observer.recorder.messages.dropFirst(started.seen).contains { $0.topic == topic && predicate(JSONValue.parse($0.payload) ?? .null) }
        }
        return ContinuousClock.now - started.at
    }

    @Test func aSlowPlugDoesNotHoldBackTheOtherOutletsOrTheProbes() async throws {
        var outlets = SimulatedOutlet.observed
        let skimmer = SimulatedOutlet(name: "Skimmer", role: "skimmer", isOn: true, ratedPowerW: 12)
        outlets.append(skimmer)
        try await ReefFixture.run(outlets: outlets, settings: ["request_timeout": "10"]) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" && $0["responding"] == true }
            _ = try await observer.latest("home/reef/probe/sump") { $0["value"] == 25.5 }
            // From now on the pump's plug takes 6 s, while everything else changes at once.
            let started = (at: ContinuousClock.now, seen: observer.recorder.messages.count)
            fixture.simulator.updateOutlet(Outlets.returnPump) { $0.slowness = .seconds(6) }
            fixture.simulator.updateOutlet(Outlets.heater) { $0.isOn = true }
            fixture.simulator.updateOutlet(skimmer.id) { $0.isOn = false }
            fixture.simulator.updateProbe(address: "000000be5efd") { $0.celsius = 26.25 }
            async let heater = arrival(observer, "home/reef/outlet/heater", since: started) { $0["state"] == "on" }
            async let skimmerOff = arrival(observer, "home/reef/outlet/skimmer", since: started) { $0["state"] == "off" }
            async let probe = arrival(observer, "home/reef/probe/sump", since: started) { $0["value"] == 26.25 }
            // The slow plug is shown as not responding before it answers…
            async let flagged = arrival(observer, "home/reef/outlet/return-pump", since: started) {
                $0["responding"] == false && $0["error"]?.stringValue?.hasPrefix("no answer within") == true
            }
            // …and its answer, seconds late, is not taken for the truth.
            async let answered = arrival(observer, "home/reef/outlet/return-pump", since: started) {
                $0["error"]?.stringValue?.hasPrefix("the plug took") == true && $0["state"] == "unknown"
            }
            let others = try await [heater, skimmerOff, probe].max()!
            let (slowFlagged, slowAnswered) = try await (flagged, answered)
            #expect(others + .seconds(3) < slowAnswered, "others after \(others), the slow plug's answer after \(slowAnswered)")
            #expect(slowFlagged < slowAnswered, "flagged after \(slowFlagged), answered after \(slowAnswered)")
        }
    }

    @Test func aSlowPlugsCommandDoesNotHoldBackAnotherOutletsCommand() async throws {
        var outlets = SimulatedOutlet.observed
        outlets[1].slowness = .seconds(3)
        try await ReefFixture.run(outlets: outlets) { _, observer in
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "off" }
            let started = ContinuousClock.now
            async let pump = observer.command("home/reef/outlet/return-pump/set", "OFF", timeout: .seconds(15))
            try await Task.sleep(for: .milliseconds(200))
            let heater = try await observer.command("home/reef/outlet/heater/set", "ON")
            let heaterTook = ContinuousClock.now - started
            let pumpAnswer = try await pump
            let pumpTook = ContinuousClock.now - started
            #expect(heater["data"]?["state"] == "on", "\(heater)")
            // The slow plug's answer still tells what it read back, and that the plug is slow.
            #expect(pumpAnswer["data"]?["state"] == "off", "\(pumpAnswer)")
            #expect(pumpAnswer["data"]?["responding"] == false)
            #expect(heaterTook + .seconds(3) < pumpTook, "heater after \(heaterTook), pump after \(pumpTook)")
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

    /// The temperature service fails its first poll, with an hour between polls: the bridge reads
    /// it again within seconds, not an hour later.
    @Test func aFailedPollIsTriedAgainSoonNotAfterTheWholeInterval() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            try await fixture.simulator.setFault(.serverError, on: .temperature)
            let yaml = ReefFixture.yaml(fixture.simulator, settings: ["temperature_interval": "3600"])
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                _ = try await observer.latest("home/reef/temperature/availability") { $0 == "offline" }
                let failedAt = ContinuousClock.now
                try await fixture.simulator.setFault(nil, on: .temperature)
                _ = try await observer.latest("home/reef/probe/sump", timeout: .seconds(30)) { $0["status"] == "ok" }
                #expect(ContinuousClock.now - failedAt < .seconds(20), "read again after \(ContinuousClock.now - failedAt)")
                #expect(try await observer.latest("home/reef/temperature/availability") == "online")
            }
        }
    }

    @Test func outletsAndProbesThatComeAndGoAddAndRemoveTheirEntities() async throws {
        try await ReefFixture.run { fixture, observer in
            let heaterConfig = "homeassistant/switch/home2mqtt_home/reef_outlet_\(Outlets.heater)/config"
            _ = try await observer.latest(heaterConfig) { $0["command_topic"] == "home/reef/outlet/heater/set" }
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "off" }
            let skimmer = SimulatedOutlet(name: "Skimmer", isOn: true, ratedPowerW: 12)
            fixture.simulator.addOutlet(skimmer)
            fixture.simulator.removeOutlet(Outlets.heater)
            fixture.simulator.addProbe(SimulatedProbe(id: 9, name: "Frag Tank", address: "000000aa0001", celsius: 24))
            _ = try await observer.latest("home/reef/outlet/skimmer") { $0["state"] == "on" }
            _ = try await observer.latest("homeassistant/switch/home2mqtt_home/reef_outlet_\(skimmer.id)/config") { $0["name"] == "Skimmer" }
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_outlet_\(skimmer.id)_power/config") { $0["unit_of_measurement"] == "W" }
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_probe_000000aa0001_temperature/config") { $0["device_class"] == "temperature" }
            // The heater went away behind the bridge's back: its state and its entities are cleared.
            _ = try await observer.latest("home/reef/outlet/heater") { $0 == "" }
            _ = try await observer.latest(heaterConfig) { $0 == "" }
            _ = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_outlet_\(Outlets.heater)_current/config") { $0 == "" }
            #expect(try await observer.latest("home/reef/outlets")["heater"] == nil)
            #expect(try await observer.command("home/reef/outlet/heater/set", "ON")["error"]?.stringValue?.hasPrefix("unknown outlet 'heater'") == true)
        }
    }
}
