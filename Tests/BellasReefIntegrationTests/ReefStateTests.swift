import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

@Suite(.serialized) struct ReefStateTests {
    @Test func publishesHealthSystemProbesAndOutlets() async throws {
        try await ReefFixture.run { fixture, observer in
            #expect(try await observer.latest("home/reef/core/availability") == "online")
            #expect(try await observer.latest("home/reef/temperature/availability") == "online")
            #expect(try await observer.latest("home/reef/outlets/availability") == "online")
            #expect(try await observer.latest("home/reef/availability") == "online")
            let health = try await observer.latest("home/reef/health") { $0["outlets"]?["available"] == true && $0["core"]?["available"] == true }
            #expect(health["core"]?["service"] == "Bella's Reef API")
            #expect(health["temperature"]?["version"] == "1.0.0")
            let system = try await observer.latest("home/reef/system") { $0["model"] != nil && $0["model"] != .null }
            #expect(system["model"] == "Raspberry Pi 4 Model B Rev 1.5")
            #expect(system["disk_percent"] == 16.95)
            let probe = try await observer.latest("home/reef/probe/display-tank") { $0["status"] == "ok" }
            #expect(probe["value"] == 25.56)
            #expect(probe["unit"] == "°C")
            let pump = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            #expect(pump["power_w"] == 24.5)
            #expect(pump["responding"] == true)
            #expect(pump["role"] == "pump_circulation")
            let disabled = try await observer.latest("home/reef/outlet/offline-plug")
            #expect(disabled["state"] == "disabled")
            #expect(disabled["enabled"] == false)
            let index = try await observer.latest("home/reef/outlets")
            #expect(index["heater"]?["id"] == .string(Outlets.heater))
            #expect(try await observer.latest("home/reef/probes")["sump"]?["address"] == "000000be5efd")
            // Disabled outlets are listed only when asked for, and never read.
            #expect(fixture.calls(.outlets, "/api/smartoutlets/outlets/").contains { $0.query == "include_disabled=true" })
            #expect(fixture.outletCalls(Outlets.disabledPlug).isEmpty)
        }
    }

    @Test func metricsAreRefreshedByThePollAndByTheRefreshCommand() async throws {
        try await ReefFixture.run { fixture, observer in
            let first = try await observer.latest("home/reef/system") { $0["read_at"] != nil && $0["read_at"] != .null }
            // The first system-usage read of a controller says 0 % CPU; later polls change it.
            _ = try await observer.latest("home/reef/system") { $0["read_at"] != first["read_at"] && $0["cpu_percent"] != 0 }
            let before = fixture.calls(.core, "/api/system-usage").count
            let response = try await observer.command("home/reef/refresh")
            #expect(response["status"] == "ok", "\(response)")
            #expect(response["data"]?["core"]?["available"] == true)
            #expect(fixture.calls(.core, "/api/system-usage").count > before)
        }
    }

    @Test func aTemperatureBuildWithoutProbeRoutesIsNotOffline() async throws {
        var options = BellasReefSimulator.Options()
        options.probeRoutes = false
        try await ReefFixture.run(options: options) { _, observer in
            _ = try await observer.latest("home/reef/health") { $0["temperature"]?["probes"] == "not on this build" }
            #expect(try await observer.latest("home/reef/temperature/availability") == "online")
            #expect(try await observer.latest("home/reef/probes") == [:])
            #expect(!observer.recorder.messages.contains { $0.topic.hasPrefix("home/reef/probe/") })
        }
    }

    @Test func aProbeThatFailsSaysErrorNotItsLastValue() async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/probe/sump") { $0["status"] == "ok" }
            fixture.simulator.updateProbe(address: "000000be5efd") { $0.failing = true }
            let failed = try await observer.latest("home/reef/probe/sump") { $0["status"] == "error" }
            #expect(failed["value"] == .null)
            #expect(failed["read_at"] == .null)
            #expect(try await observer.latest("home/reef/probe/display-tank")["status"] == "ok")
        }
    }

    /// Each driver's readings as the real controller fills them (bellasreef-v2's drivers): a
    /// sensor only for what the driver sends, and a Kasa plug's current in amperes.
    @Test func anOutletHasTheSensorsItsDriverFillsAndItsCurrentInAmperes() async throws {
        try await ReefFixture.run { fixture, observer in
            let dosing = SimulatedOutlet(name: "Dosing Pump", isOn: true, ratedPowerW: 5, energyKWh: 0.4, driverType: "vesync")
            let wavemaker = SimulatedOutlet(name: "Wavemaker", isOn: true, ratedPowerW: 8, driverType: "shelly")
            fixture.simulator.addOutlet(dosing)
            fixture.simulator.addOutlet(wavemaker)
            func config(_ id: String, _ meter: String) -> String { "homeassistant/sensor/home2mqtt_home/reef_outlet_\(id)_\(meter)/config" }
            _ = try await observer.latest(config(dosing.id, "energy")) { $0["unit_of_measurement"] == "kWh" }
            _ = try await observer.latest(config(wavemaker.id, "power")) { $0["unit_of_measurement"] == "W" }
            _ = try await observer.latest(config(Outlets.returnPump, "current")) { $0["unit_of_measurement"] == "A" }
            let announced = Set(observer.recorder.messages.map(\.topic))
            #expect(!announced.contains(config(Outlets.returnPump, "energy")), "Kasa never sends energy")
            #expect(!announced.contains(config(wavemaker.id, "voltage")) && !announced.contains(config(wavemaker.id, "energy")))

            // 24.5 W at 231 V: 0.106 A, where the Kasa driver says 0.000106.
            let pump = try await observer.latest("home/reef/outlet/return-pump") { $0["power_w"] == 24.5 }
            #expect(pump["current_a"] == 0.106, "\(pump)")
            #expect(pump["energy_kwh"] == .null)
            #expect(try await observer.latest("home/reef/outlet/dosing-pump") { $0["state"] == "on" }["energy_kwh"] == 0.4)
        }
    }

    @Test func homeAssistantSeesTheControllerOutletsAndProbes() async throws {
        try await ReefFixture.run { _, observer in
            let cpu = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_cpu_percent/config")
            #expect(cpu["state_class"] == "measurement")
            #expect(cpu["unit_of_measurement"] == "%")
            let pump = try await observer.latest("homeassistant/switch/home2mqtt_home/reef_outlet_\(Outlets.returnPump)/config")
            #expect(pump["command_topic"] == "home/reef/outlet/return-pump/set")
            let current = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_outlet_\(Outlets.returnPump)_current/config")
            #expect(current["unit_of_measurement"] == "A")
            let probe = try await observer.latest("homeassistant/sensor/home2mqtt_home/reef_probe_000000be5efd_temperature/config")
            #expect(probe["device_class"] == "temperature")
            #expect(probe["unit_of_measurement"] == "°C")
            let connectivity = try await observer.latest("homeassistant/binary_sensor/home2mqtt_home/reef_temperature_connectivity/config")
            #expect(connectivity["state_topic"] == "home/reef/temperature/availability")
        }
    }
}
