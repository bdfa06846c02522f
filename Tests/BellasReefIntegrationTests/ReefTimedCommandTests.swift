import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

@Suite(.serialized) struct ReefTimedCommandTests {
    private func turnOns(_ fixture: ReefFixture, _ id: String) -> Int {
        fixture.outletCalls(id).filter { $0.method == "POST" && $0.path.hasSuffix("/turn_on") }.count
    }

    /// On virtual time: nothing is restored a second early, and it is at the second.
    @Test func aTimedOffIsRestoredWhenDue() async throws {
        let clock = ManualClock()
        try await ReefFixture.run(clock: clock) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            let response = try await observer.command("home/reef/outlet/return-pump/set", #"{"state":"off","for":120}"#)
            #expect(response["data"]?["state"] == "off", "\(response)")
            #expect(response["data"]?["restore_state"] == "on")
            #expect(response["data"]?["restore_at"]?.stringValue == clock.wallNow.addingTimeInterval(120).iso8601)
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "off" && $0["restore_at"] != .null }
            try await clock.advance(by: .seconds(119))
            #expect(turnOns(fixture, Outlets.returnPump) == 0)
            try await clock.advance(by: .seconds(1))
            let restored = try await observer.latest("home/reef/outlet/return-pump", live: true) {
                $0["state"] == "on" && $0["restore_at"] == .null
            }
            #expect(restored["restore_state"] == .null)
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
            #expect(turnOns(fixture, Outlets.returnPump) == 1)
        }
    }

    @Test func aPlainCommandCancelsThePendingRestore() async throws {
        let clock = ManualClock()
        try await ReefFixture.run(clock: clock) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            #expect(try await observer.command("home/reef/outlet/return-pump/set", #"{"state":"off","for":2}"#)["status"] == "ok")
            let plain = try await observer.command("home/reef/outlet/return-pump/set", "OFF")
            #expect(plain["data"]?["restore_at"] == .null, "\(plain)")
            try await clock.advance(by: .seconds(3))
            #expect(turnOns(fixture, Outlets.returnPump) == 0)
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
        }
    }

    @Test func aSecondTimedCommandKeepsTheFirstOnesPromise() async throws {
        let clock = ManualClock()
        try await ReefFixture.run(clock: clock) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            #expect(try await observer.command("home/reef/outlet/return-pump/set", #"{"state":"off","for":600}"#)["status"] == "ok")
            // Still off, for a shorter while: afterwards back on, as before the first command.
            let second = try await observer.command("home/reef/outlet/return-pump/set", #"{"state":"off","for":2}"#)
            #expect(second["data"]?["restore_state"] == "on", "\(second)")
            try await clock.advance(by: .seconds(2))
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
            #expect(turnOns(fixture, Outlets.returnPump) == 1)
        }
    }

    /// A timed OFF's restore falls due while a plain OFF for the same outlet runs (a slow plug):
    /// the restore waits for the command, and then does nothing, as the command dropped its
    /// promise: the person's later word stands. On real time: a virtual clock moves no time while
    /// a request is out, and here the restore must fall due during one.
    @Test func aRestoreDueWhileACommandForItsOutletRunsLeavesThatCommandStanding() async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            // Due within two seconds (whole seconds, rounded up); the plain OFF's switch takes three.
            #expect(try await observer.command("home/reef/outlet/return-pump/set", #"{"state":"off","for":1}"#)["status"] == "ok")
            fixture.simulator.updateOutlet(Outlets.returnPump) { $0.slowness = .seconds(3) }
            #expect(try await observer.command("home/reef/outlet/return-pump/set", "OFF")["status"] == "ok")
            fixture.simulator.updateOutlet(Outlets.returnPump) { $0.slowness = .zero }
            // In line after the restore: once answered, the restore had its turn.
            #expect(try await observer.command("home/reef/outlet/return-pump/set", "OFF")["status"] == "ok")
            #expect(turnOns(fixture, Outlets.returnPump) == 0)
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
            #expect(!observer.recorder.messages.contains { $0.topic == "home/bridge/event" && $0.payloadString?.contains("restore_carried_out") == true })
        }
    }

    @Test func aTimedOffIsRestoredAcrossARestart() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            let stateDirectory = temporaryStateDirectory()
            let yaml = "bridge:\n  state_dir: \(stateDirectory)\n" + ReefFixture.yaml(fixture.simulator)
            var due = Date()
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                let response = try await observer.command("home/reef/outlet/return-pump/set", #"{"state":"off","for":4}"#)
                #expect(response["status"] == "ok", "\(response)")
                // Whole seconds in the answer: due no earlier than this.
                due = try Date(response["data"]?["restore_at"]?.stringValue ?? "", strategy: .iso8601)
            }
            // The first bridge is gone; the promise is in the file, and nothing restored the pump yet.
            let saved = try String(contentsOfFile: stateDirectory + "/timers.json", encoding: .utf8)
            #expect(saved.contains(Outlets.returnPump))
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                try await waitUntil("the pump is back on", timeout: .seconds(10)) { fixture.simulator.outlet(Outlets.returnPump)?.isOn == true }
                #expect(Date() >= due, "restored \(due.timeIntervalSinceNow) s before it was due")
                #expect(turnOns(fixture, Outlets.returnPump) == 1)
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" && $0["restore_at"] == .null }
            }
            let after = try String(contentsOfFile: stateDirectory + "/timers.json", encoding: .utf8)
            #expect(!after.contains(Outlets.returnPump))
        }
    }
}
