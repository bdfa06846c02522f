import BellasReefIntegration
import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// The tank's interlocks: a heater that sticks on is turned off when its probe runs hot, held off
/// for a while, then back on; a user's later command wins; the hold outlives a restart. On virtual
/// time: readings are a second apart, and each `clock.advance` of a second is one reading.
@Suite struct ReefInterlockTests {
    static let display = "000000bd3685"
    static let interlock = "home/reef/interlock/heater"

    static func interlockYAML(minOff: Int) -> String {
        """
          interlocks:
            - probe: Display Tank
              above: 27
              outlet: Heater
              min_off: \(minOff)
              hysteresis: 0.5

        """
    }

    private func heaterIsOn(_ fixture: ReefFixture) -> Bool? {
        fixture.simulator.outlet(Outlets.heater)?.isOn
    }

    private func turnOffCalls(_ fixture: ReefFixture) -> Int {
        fixture.outletCalls(Outlets.heater).filter { $0.method == "POST" && $0.path.hasSuffix("/turn_off") }.count
    }

    /// The first bridge event of `type` (past or future); `nil` data when none came.
    private func event(_ observer: Observer, _ type: String, timeout: Duration = .seconds(20)) async throws -> JSONValue {
        let message = try await observer.recorder.first(timeout: timeout) {
            $0.topic == "home/bridge/event" && JSONValue.parse($0.payload)?["type"] == .string(type)
        }
        return JSONValue.parse(message.payload)?["data"] ?? .null
    }

    /// The heater on, then a reading of a hot tank.
    private func heatUp(_ fixture: ReefFixture, _ observer: Observer) async throws {
        try await switchHeaterOnAtTheController(fixture, observer)
        _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
        try await setDisplayTank(fixture, 28.4)
    }

    private func switchHeaterOnAtTheController(_ fixture: ReefFixture, _ observer: Observer) async throws {
        fixture.simulator.updateOutlet(Outlets.heater) { $0.isOn = true }
        try await fixture.virtualClock.advance(by: .seconds(1))
        _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "on" }
    }

    /// The probe reads `celsius` from the next reading on, which is taken.
    private func setDisplayTank(_ fixture: ReefFixture, _ celsius: Double) async throws {
        fixture.simulator.updateProbe(address: Self.display) { $0.celsius = celsius }
        try await fixture.virtualClock.advance(by: .seconds(1))
    }

    private func withInterlock(minOff: Int, extra: String = "", _ body: (ReefFixture, Observer) async throws -> Void) async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            try await fixture.runBridge(yaml: ReefFixture.yaml(fixture.simulator) + Self.interlockYAML(minOff: minOff) + extra, body)
        }
    }

    /// Runs `body` once the tank ran hot and the interlock holds the heater off, with the number
    /// of turn-offs the plug had by then.
    private func withHeaterHeldOff(minOff: Int, _ body: (ReefFixture, Observer, Int) async throws -> Void) async throws {
        try await withInterlock(minOff: minOff) { fixture, observer in
            try await heatUp(fixture, observer)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            try await body(fixture, observer, turnOffCalls(fixture))
        }
    }

    @Test func aHotProbeTurnsTheHeaterOffForAtLeastMinOffThenBackOn() async throws {
        try await withInterlock(minOff: 8) { fixture, observer in
            let sensor = try await observer.latest("homeassistant/binary_sensor/home2mqtt_home/reef_interlock_heater/config")
            #expect(sensor["device_class"] == "problem")
            #expect(try await observer.latest(Self.interlock)["release_at"] == .null)
            try await heatUp(fixture, observer)
            let trippedAt = fixture.clock.wallNow

            let tripped = try await event(observer, "interlock_tripped")
            #expect(tripped["value"] == 28.4)
            #expect(tripped["above"] == 27)
            #expect(tripped["outlet"] == "Heater")
            let state = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            // The trip is the reading that saw 28.4: the one after the change, or one already on
            // its way when the probe changed (a second earlier). min_off counts from it either way.
            let releaseAt = try #require(
                [8.0, 7.0].map { trippedAt.addingTimeInterval($0) }.first { $0.iso8601 == state["release_at"]?.stringValue }, "\(state)")
            #expect(state["min_off"] == 8)
            #expect(heaterIsOn(fixture) == false)
            #expect(turnOffCalls(fixture) >= 1)

            // It cools at once, but the minimum off time has not passed: still off, to the second.
            try await setDisplayTank(fixture, 25.5)
            _ = try await observer.latest("home/reef/probe/display-tank") { $0["value"] == 25.5 }
            try await fixture.virtualClock.advance(by: .seconds(Int64(releaseAt.timeIntervalSince(fixture.clock.wallNow).rounded()) - 1))
            #expect(heaterIsOn(fixture) == false)
            #expect(try await observer.latest(Self.interlock)["state"] == "tripped")

            try await fixture.virtualClock.advance(by: .seconds(1))
            #expect(heaterIsOn(fixture) == true)
            let released = try await event(observer, "interlock_released")
            #expect(released["state"] == "on")
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" && $0["release_at"] == .null }
        }
    }

    /// A user's ON while the heater is held off wins: the bridge does not turn it off again, though
    /// the probe is still hot, nor later; it watches again once the probe is back down.
    @Test func aUsersLaterCommandWinsAndTheInterlockRearmsOnceCooled() async throws {
        try await withHeaterHeldOff(minOff: 3) { fixture, observer, offCalls in
            let answer = try await observer.command("home/reef/outlet/heater/set", "ON")
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["data"]?["interlock"]?.stringValue?.hasPrefix("overridden: ") == true, "\(answer)")
            let overridden = try await event(observer, "interlock_overridden")
            #expect(overridden["interlock"] == "heater")
            #expect(overridden["by"] == "command")
            _ = try await observer.latest(Self.interlock) { $0["state"] == "overridden" && $0["release_at"] == .null }

            // Several readings, still hot, and past the minimum off time: the user's ON stands.
            for _ in 1...5 { try await fixture.virtualClock.advance(by: .seconds(1)) }
            #expect(heaterIsOn(fixture) == true)
            #expect(turnOffCalls(fixture) == offCalls)
            #expect(try await observer.latest(Self.interlock)["state"] == "overridden")

            try await setDisplayTank(fixture, 25.5)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
            // Armed again, it trips again.
            try await setDisplayTank(fixture, 28)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            #expect(heaterIsOn(fixture) == false)
        }
    }

    /// Someone switches the held heater on at the controller itself: that wins as a command sent
    /// to the bridge does, and is said (the state, the event), not fought.
    @Test func anOutletSwitchedOnOutsideTheBridgeDuringAHoldEndsItAndSaysSo() async throws {
        try await withHeaterHeldOff(minOff: 60) { fixture, observer, offCalls in
            try await switchHeaterOnAtTheController(fixture, observer)
            let overridden = try await event(observer, "interlock_overridden")
            #expect(overridden["interlock"] == "heater")
            #expect(overridden["by"] == "outside")
            _ = try await observer.latest(Self.interlock) { $0["state"] == "overridden" && $0["release_at"] == .null }
            for _ in 1...4 { try await fixture.virtualClock.advance(by: .seconds(1)) }
            #expect(heaterIsOn(fixture) == true)
            #expect(turnOffCalls(fixture) == offCalls)

            try await setDisplayTank(fixture, 25.5)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
        }
    }

    /// The smart-outlet service is away when the probe runs hot: nothing is switched, the
    /// interlock stays armed; it trips at a reading once the service is back.
    @Test func aTripThatFailsIsTriedAgainAtTheNextReading() async throws {
        try await withInterlock(minOff: 600) { fixture, observer in
            try await switchHeaterOnAtTheController(fixture, observer)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
            try await fixture.simulator.setFault(.down, on: .outlets)
            try await setDisplayTank(fixture, 28.4)
            _ = try await observer.latest("home/reef/probe/display-tank") { $0["value"] == 28.4 }
            try await fixture.virtualClock.advance(by: .seconds(1))
            #expect(try await observer.latest(Self.interlock)["state"] == "armed")

            try await fixture.simulator.setFault(nil, on: .outlets)
            // A reading taken in the same second as the outlets' first answer may come before it
            // (seen under load): a few readings, not exactly one.
            for _ in 1...3 where try await observer.latest(Self.interlock)["state"] != "tripped" {
                try await fixture.virtualClock.advance(by: .seconds(1))
            }
            _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            #expect(heaterIsOn(fixture) == false)
        }
    }

    /// A timed command's restore falls due while the heater is held off: it does not turn the
    /// heater on; the hold took it over and puts the heater back on at its release.
    @Test func aTimedCommandsRestoreWaitsForTheRelease() async throws {
        try await withInterlock(minOff: 6) { fixture, observer in
            try await switchHeaterOnAtTheController(fixture, observer)
            let answer = try await observer.command("home/reef/outlet/heater/set", #"{"state":"off","for":2}"#)
            #expect(answer["data"]?["restore_state"] == "on", "\(answer)")
            try await setDisplayTank(fixture, 28.4)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            _ = try await observer.latest("home/reef/outlet/heater") { $0["restore_at"] == .null }

            try await fixture.virtualClock.advance(by: .seconds(2))
            #expect(heaterIsOn(fixture) == false, "the timed command's restore fell due while the heater was held off")
            try await setDisplayTank(fixture, 25.5)
            try await fixture.virtualClock.advance(by: .seconds(3))
            #expect(heaterIsOn(fixture) == true)
            #expect(try await event(observer, "interlock_released")["state"] == "on")
        }
    }

    /// A scene turns the heater on; the tank runs hot and the interlock holds it off; the scene's
    /// OFF comes during the hold. The release puts back what was there before the scene (off), not
    /// the "on" the trip found.
    @Test func aScenesEndDuringAHoldIsWhatTheReleasePutsBack() async throws {
        let scene = "scenes:\n  - name: Warm\n    parts:\n      - reef_outlet: Heater\n        state: on\n"
        try await withInterlock(minOff: 4, extra: scene) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "off" }
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
            #expect(try await observer.command("home/scene/warm/set", "ON")["status"] == "ok")
            #expect(heaterIsOn(fixture) == true)
            try await setDisplayTank(fixture, 28.4)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            #expect(heaterIsOn(fixture) == false)
            let off = try await observer.command("home/scene/warm/set", "OFF")
            #expect(off["status"] == "ok", "\(off)")
            try await setDisplayTank(fixture, 25.5)
            try await fixture.virtualClock.advance(by: .seconds(3))
            #expect(try await event(observer, "interlock_released")["state"] == "off")
            #expect(heaterIsOn(fixture) == false, "back as before the scene, not as the trip found it")
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
        }
    }

    /// Feed mode turns the heater off; the tank runs hot and the interlock holds it; the feed's end
    /// falls during the hold and leaves the heater off; a feed started during the hold leaves it
    /// alone. The release puts back what was there before the first feed (on).
    @Test func aFeedsEndDuringAHoldLeavesTheOutletToTheRelease() async throws {
        let feed = "  feed:\n    outlets: [Heater]\n    default_minutes: 10\n"
        try await withInterlock(minOff: 8, extra: feed) { fixture, observer in
            try await switchHeaterOnAtTheController(fixture, observer)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
            #expect(try await observer.command("home/reef/feed/start", #"{"for":3}"#)["status"] == "ok")
            #expect(heaterIsOn(fixture) == false)
            try await setDisplayTank(fixture, 28.4)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            try await fixture.virtualClock.advance(by: .seconds(2))
            _ = try await observer.latest("home/reef/feed") { $0["active"] == false }
            #expect(heaterIsOn(fixture) == false, "the feed's end fell during the hold")

            let second = try await observer.command("home/reef/feed/start", #"{"for":2}"#)
            #expect(second["data"]?["outlets"]?["heater"] == "held off by an interlock", "\(second)")
            _ = try await observer.latest("home/reef/feed") { $0["active"] == true }
            try await fixture.virtualClock.advance(by: .seconds(2))
            _ = try await observer.latest("home/reef/feed") { $0["active"] == false }
            #expect(try await observer.latest(Self.interlock)["state"] == "tripped", "the second feed ended during the hold")

            try await setDisplayTank(fixture, 25.5)
            try await fixture.virtualClock.advance(by: .seconds(3))
            #expect(try await event(observer, "interlock_released")["state"] == "on")
            #expect(heaterIsOn(fixture) == true)
        }
    }

    /// The bridge stops while the heater is held off; the probe cools and the hold falls due
    /// meanwhile; the next bridge turns the heater back on at its first reading, which it takes at
    /// the start, not at the timer's next retry 15 s on: no time passes on the clock after the start.
    @Test func theHoldOutlivesARestart() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            let yaml = "bridge:\n  state_dir: \(temporaryStateDirectory())\n" + ReefFixture.yaml(fixture.simulator) + Self.interlockYAML(minOff: 2)
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                try await heatUp(fixture, observer)
                _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" }
            }
            #expect(heaterIsOn(fixture) == false)
            try await fixture.virtualClock.advance(by: .seconds(2))
            #expect(heaterIsOn(fixture) == false, "no bridge runs: nothing turns the heater on")
            fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 25.5 }
            // Subscribed before the bridge starts: the release may come before its observer's subscription.
            let events = try await Observer(fixture.broker, subscribe: ["home/bridge/event"])
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                try await waitUntil("the heater is back on", timeout: .seconds(20)) { heaterIsOn(fixture) == true }
                _ = try await event(events, "interlock_released")
                _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" }
            }
            await events.disconnect()
        }
    }

    /// `on_probe_lost: off`: a failing probe trips the interlock as a hot one would, and the hold
    /// lasts, across a restart, until a fresh reading is back down.
    @Test func aLostProbeTurnsTheHeaterOffWhenTheInterlockFailsSafe() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            let yaml = "bridge:\n  state_dir: \(temporaryStateDirectory())\n" + ReefFixture.yaml(fixture.simulator)
                + Self.interlockYAML(minOff: 2) + "      on_probe_lost: off\n"
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                try await switchHeaterOnAtTheController(fixture, observer)
                _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" && $0["on_probe_lost"] == "off" }
                fixture.simulator.updateProbe(address: Self.display) { $0.failing = true }
                try await fixture.virtualClock.advance(by: .seconds(1))
                let tripped = try await event(observer, "interlock_tripped")
                #expect(tripped["reason"] == "probe_lost", "\(tripped)")
                _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" && $0["reason"] == "probe_lost" }
                #expect(heaterIsOn(fixture) == false)
            }
            // min_off passes while no bridge runs; the probe still fails when the next one starts.
            try await fixture.virtualClock.advance(by: .seconds(5))
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                _ = try await observer.latest(Self.interlock) { $0["state"] == "tripped" && $0["reason"] == "probe_lost" }
                try await fixture.virtualClock.advance(by: .seconds(3))
                #expect(heaterIsOn(fixture) == false, "a failing probe proves no cooling")
                fixture.simulator.updateProbe(address: Self.display) { $0.failing = false; $0.celsius = 25.5 }
                try await fixture.virtualClock.advance(by: .seconds(1))
                _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" && $0["reason"] == .null }
                #expect(heaterIsOn(fixture) == true)
                #expect(try await event(observer, "interlock_released")["state"] == "on")
            }
        }
    }

    /// The default, `keep`: a probe that fails, then stays stale past `stale_after`, leaves the
    /// heater as it is.
    @Test func aLostProbeLeavesTheHeaterAsItIsByDefault() async throws {
        try await withInterlock(minOff: 2) { fixture, observer in
            try await switchHeaterOnAtTheController(fixture, observer)
            _ = try await observer.latest(Self.interlock) { $0["state"] == "armed" && $0["on_probe_lost"] == "keep" }
            fixture.simulator.updateProbe(address: Self.display) { $0.failing = true }
            try await fixture.virtualClock.advance(by: .seconds(90))
            #expect(heaterIsOn(fixture) == true)
            #expect(turnOffCalls(fixture) == 0)
            #expect(try await observer.latest(Self.interlock)["state"] == "armed")
        }
    }

    @Test(arguments: [
        ("    - probe: Sump\n      outlet: Heater\n", "reef.interlocks[0].above"),
        ("    - probe: Sump\n      above: hot\n      outlet: Heater\n", "reef.interlocks[0].above"),
        ("    - probe: Sump\n      above: 500\n      outlet: Heater\n", "reef.interlocks[0].above"),
        ("    - probe: Sump\n      above: 27\n", "reef.interlocks[0].outlet"),
        ("    - above: 27\n      outlet: Heater\n", "reef.interlocks[0].probe"),
        ("    - probe: Sump\n      above: 27\n      outlet: Heater\n      min_off: 0\n", "reef.interlocks[0].min_off"),
        ("    - probe: Sump\n      above: 27\n      outlet: Heater\n      hysteresis: -1\n", "reef.interlocks[0].hysteresis"),
        ("    - probe: Sump\n      above: 27\n      outlet: Heater\n      below: 20\n", "reef.interlocks[0].below"),
        ("    - probe: Sump\n      above: 27\n      outlet: Heater\n      on_probe_lost: false\n", "reef.interlocks[0].on_probe_lost"),
        ("    - probe: Sump\n      above: 27\n      outlet: Heater\n    - probe: Display Tank\n      above: 28\n      outlet: heater\n",
         "reef.interlocks[1].outlet"),
    ])
    func aBadInterlockStopsTheStartNamingItsKey(item: String, key: String) async throws {
        #expect(reefConfigurationRefuses("interlocks", item, naming: key))
    }
}
