import BellasReefIntegration
import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// What the bridge does by itself needs no broker: an interlock trips, a restore is carried out,
/// while the broker is away or was never there; when it is back, it gets the state as it is now.
/// One at a time, as the other Reef suites: each runs a broker, three listeners and a bridge.
@Suite(.serialized) struct ReefBrokerAwayTests {
    static let display = "000000bd3685"

    static func yaml(_ fixture: ReefFixture, stateDirectory: String = temporaryStateDirectory(), minOff: Int = 600) -> String {
        "bridge:\n  state_dir: \(stateDirectory)\n" + ReefFixture.yaml(fixture.simulator) + ReefInterlockTests.interlockYAML(minOff: minOff)
    }

    private func heaterIsOn(_ fixture: ReefFixture) -> Bool? {
        fixture.simulator.outlet(Outlets.heater)?.isOn
    }

    /// Waits until the controller served `count` more temperature reads than now: readings the bridge took.
    private func readings(_ count: Int, of fixture: ReefFixture) async throws {
        let before = fixture.simulator.requests(.temperature).count
        try await waitUntil("\(count) more temperature reads", timeout: .seconds(10)) {
            fixture.simulator.requests(.temperature).count >= before + count
        }
    }

    /// Started with no broker at all: the bridge reads the tank and trips the heater's interlock;
    /// the broker, started later and empty, then gets the tripped interlock and `online`.
    @Test func anInterlockTripsThoughTheBrokerWasNeverThere() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            fixture.simulator.updateOutlet(Outlets.heater) { $0.isOn = true }
            fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 25.5 }
            fixture.broker.stop()
            try await fixture.runBridgeWithoutObserver(yaml: Self.yaml(fixture), waitingForOnline: false) {
                try await readings(2, of: fixture)
                fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 28.4 }
                try await waitUntil("the heater off", timeout: .seconds(10)) { heaterIsOn(fixture) == false }

                try await fixture.broker.restart()
                let observer = try await Observer(fixture.broker, subscribe: ["home/#"])
                #expect(try await observer.latest(ReefInterlockTests.interlock) { $0["state"] == "tripped" }["release_at"] != .null)
                #expect(try await observer.latest("home/bridge/state") == "online")
                await observer.disconnect()
            }
        }
    }

    /// The broker stops answering after ordinary readings, which change (each a publication it
    /// never acknowledges); then the tank runs hot: the heater goes off within two readings. A
    /// network that drops the broker's packets looks so (a stopped process here): the connection
    /// stays up until the keep-alive gives up, unlike a broker that closes it.
    @Test func anInterlockTripsWhileTheBrokerDoesNotAnswer() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            fixture.simulator.updateOutlet(Outlets.heater) { $0.isOn = true }
            fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 25.5 }
            try await fixture.runBridge(yaml: Self.yaml(fixture)) { fixture, observer in
                _ = try await observer.latest(ReefInterlockTests.interlock) { $0["state"] == "armed" }
                let broker = try #require(fixture.broker.pid)
                kill(broker, SIGSTOP)
                defer { kill(broker, SIGCONT) }
                for celsius in [25.8, 26.1, 26.4] {
                    fixture.simulator.updateProbe(address: Self.display) { $0.celsius = celsius }
                    try await readings(2, of: fixture)
                }
                fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 28.4 }
                try await readings(2, of: fixture)
                // The trip is its own task's, after the reading: a read of the plug and a switch,
                // not another reading (a loaded test machine takes its time for those).
                try await waitUntil("the heater off", timeout: .seconds(5)) { heaterIsOn(fixture) == false }
                kill(broker, SIGCONT)
                _ = try await observer.latest(ReefInterlockTests.interlock) { $0["state"] == "tripped" }
            }
        }
    }

    /// A timed command's restore falls due while the broker is away, in a bridge started while it
    /// was: it is carried out on time all the same.
    @Test func aRestoreDueDuringAnOutageIsCarriedOutOnTime() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            let clock = fixture.virtualClock
            let yaml = "bridge:\n  state_dir: \(temporaryStateDirectory())\n" + ReefFixture.yaml(fixture.simulator)
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                let response = try await observer.command("home/reef/outlet/return-pump/set", #"{"state":"off","for":8}"#)
                #expect(response["data"]?["restore_at"]?.stringValue == clock.wallNow.addingTimeInterval(8).iso8601)
            }
            fixture.broker.stop()
            try await fixture.runBridgeWithoutObserver(yaml: yaml, waitingForOnline: false) {
                try await clock.advance(by: .seconds(7))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false, "restored before it was due")
                try await clock.advance(by: .seconds(1))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true, "not restored when due")
                try await fixture.broker.restart()
            }
        }
    }

    /// A hold saved by one run is released by the next within a reading of its `release_at`,
    /// and says `since` the trip, as before the restart.
    @Test func aHoldAcrossARestartReleasesWithinAReadingOfItsReleaseTime() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            let clock = fixture.virtualClock
            let yaml = Self.yaml(fixture, stateDirectory: temporaryStateDirectory(), minOff: 6)
            fixture.simulator.updateOutlet(Outlets.heater) { $0.isOn = true }
            fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 28.4 }
            var tripped = JSONValue.null
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                tripped = try await observer.latest(ReefInterlockTests.interlock) { $0["state"] == "tripped" }
            }
            #expect(tripped["release_at"]?.stringValue == clock.wallNow.addingTimeInterval(6).iso8601)
            fixture.simulator.updateProbe(address: Self.display) { $0.celsius = 25.0 }
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                let resumed = try await observer.latest(ReefInterlockTests.interlock) { $0["state"] == "tripped" }
                #expect(resumed["since"] == tripped["since"])
                #expect(resumed["release_at"] == tripped["release_at"])
                try await clock.advance(by: .seconds(5))
                #expect(heaterIsOn(fixture) == false, "released before release_at")
                try await clock.advance(by: .seconds(1))
                // The clock stays at release_at: only a release due by then can turn the heater on
                // (its request may still be on its way when the advance returns).
                try await waitUntil("released at release_at, with a fresh reading", timeout: .seconds(10)) { heaterIsOn(fixture) == true }
            }
        }
    }
}
