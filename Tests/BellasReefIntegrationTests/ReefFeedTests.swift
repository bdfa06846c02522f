import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// Feed mode: the feed outlets off for a while, each back to the state it had before. On
/// virtual time.
@Suite(.serialized) struct ReefFeedTests {
    static let feedYAML = "  feed:\n    outlets: [\"Return Pump\", \"heater\", \"Offline Plug\"]\n    default_minutes: 10\n"

    private func run(_ body: (ReefFixture, Observer) async throws -> Void) async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            try await fixture.runBridge(yaml: ReefFixture.yaml(fixture.simulator) + Self.feedYAML, body)
        }
    }

    private func switchCalls(_ fixture: ReefFixture) -> Int {
        fixture.calls(.outlets, "/api/smartoutlets/outlets/").filter { $0.method == "POST" }.count
    }

    /// The pump (on) and the heater (off) are off while the fish feed; the disabled plug fails and
    /// is reported, the others go regardless; then each is back as it was: the pump on, the heater off.
    @Test func eachOutletIsRestoredToItsOwnStateAndAFailureIsReported() async throws {
        try await run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            let answer = try await observer.command("home/reef/feed/start", #"{"for":120}"#)
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["data"]?["outlets"]?["return-pump"] == "off")
            #expect(answer["data"]?["outlets"]?["heater"] == "off")
            #expect(answer["data"]?["outlets"]?["offline-plug"]?.stringValue?.hasPrefix("failed") == true, "\(answer)")
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
            let feeding = try await observer.latest("home/reef/feed") { $0["active"] == true && $0["until"] != .null }
            #expect(feeding["until"]?.stringValue == fixture.clock.wallNow.addingTimeInterval(120).iso8601)
            try await fixture.virtualClock.advance(by: .seconds(119))
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
            try await fixture.virtualClock.advance(by: .seconds(1))
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
            _ = try await observer.latest("home/reef/feed") { $0["active"] == false }
            #expect(fixture.simulator.outlet(Outlets.heater)?.isOn == false)
            let button = try await observer.latest("homeassistant/button/home2mqtt_home/reef_feed/config")
            #expect(button["command_topic"] == "home/reef/feed/start")
        }
    }

    /// An outlet disabled on the controller during the feed never will come back: the feed still
    /// ends at its time, the others back as they were, rather than trying that one every 15 s.
    @Test func anOutletDisabledDuringTheFeedDoesNotHoldItsEndBack() async throws {
        try await run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            #expect(try await observer.command("home/reef/feed/start", #"{"for":120}"#)["status"] == "ok")
            fixture.simulator.updateOutlet(Outlets.returnPump) { $0.enabled = false }
            try await fixture.virtualClock.advance(by: .seconds(120))
            _ = try await observer.latest("home/reef/feed") { $0["active"] == false }
            #expect(fixture.simulator.outlet(Outlets.heater)?.isOn == false)
        }
    }

    /// The first feed's end falls due while a second feed starts (a slow plug): the end waits for
    /// it, and then switches nothing: the pump stays off for the second feed, and only its cancel
    /// turns it back on. On real time: a virtual clock moves no time while a request is out.
    @Test func anEndDueWhileASecondFeedStartsLeavesTheOutletsToIt() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            try await fixture.runBridge(yaml: ReefFixture.yaml(fixture.simulator) + Self.feedYAML) { fixture, observer in
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                // Due within two seconds (whole seconds, rounded up); the second start's switch takes three.
                #expect(try await observer.command("home/reef/feed/start", #"{"for":1}"#)["status"] == "ok")
                fixture.simulator.updateOutlet(Outlets.returnPump) { $0.slowness = .seconds(3) }
                #expect(try await observer.command("home/reef/feed/start", #"{"for":600}"#)["status"] == "ok")
                fixture.simulator.updateOutlet(Outlets.returnPump) { $0.slowness = .zero }
                // In line after the end: once answered, the end had its turn.
                #expect(try await observer.command("home/reef/feed/cancel")["status"] == "ok")
                let turnOns = fixture.outletCalls(Outlets.returnPump).filter { $0.method == "POST" && $0.path.hasSuffix("/turn_on") }
                #expect(turnOns.count == 1, "the first feed's end switched the pump on during the second")
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
            }
        }
    }

    /// A second feed extends the first and keeps its promise: the pump comes back on, though it
    /// was off when the second began; a cancel restores at once.
    @Test func aSecondFeedKeepsTheFirstPromiseAndACancelRestoresAtOnce() async throws {
        try await run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            #expect(try await observer.command("home/reef/feed/start")["status"] == "ok")
            let second = try await observer.command("home/reef/feed/start", "600")
            #expect(second["status"] == "ok", "\(second)")
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
            let cancelled = try await observer.command("home/reef/feed/cancel")
            #expect(cancelled["status"] == "ok", "\(cancelled)")
            // By key, as the start's answer names them.
            #expect(cancelled["data"]?["restored"] == ["heater", "return-pump"], "\(cancelled)")
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
            #expect(fixture.simulator.outlet(Outlets.heater)?.isOn == false)
            _ = try await observer.latest("home/reef/feed") { $0["active"] == false }
            #expect(try await observer.command("home/reef/feed/cancel")["status"] == "error")
        }
    }

    @Test func aFeedIsRestoredAcrossARestart() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            let yaml = "bridge:\n  state_dir: \(temporaryStateDirectory())\n" + ReefFixture.yaml(fixture.simulator) + Self.feedYAML
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                #expect(try await observer.command("home/reef/feed/start", #"{"for":4}"#)["status"] == "ok")
            }
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                try await fixture.virtualClock.advance(by: .seconds(3))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
                try await fixture.virtualClock.advance(by: .seconds(1))
                // The clock stays at the feed's end: only a restore due by then turns the pump on.
                // The restarted bridge's timers may be read after the advance returns, on a busy
                // machine (the advance cannot wait for a loop that has not waited yet): then the
                // restore comes as they are, already due.
                try await waitUntil("the pump is back on", timeout: .seconds(10)) { fixture.simulator.outlet(Outlets.returnPump)?.isOn == true }
                _ = try await observer.latest("home/reef/feed") { $0["active"] == false }
            }
        }
    }

    /// The heater back at the feed's end, the pump 30 s later, by a timer of its own that a
    /// restart keeps; the feed's state and the pump's say when.
    @Test func aStagedOutletComesBackAfterTheOthersAlsoAcrossARestart() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            fixture.simulator.updateOutlet(Outlets.heater) { $0.isOn = true }
            let yaml = "bridge:\n  state_dir: \(temporaryStateDirectory())\n" + ReefFixture.yaml(fixture.simulator) + Self.stagedYAML
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                #expect(try await observer.command("home/reef/feed/start", #"{"for":10}"#)["status"] == "ok")
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
                try await fixture.virtualClock.advance(by: .seconds(10))
                #expect(fixture.simulator.outlet(Outlets.heater)?.isOn == true)
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
                let backAt = fixture.clock.wallNow.addingTimeInterval(30).iso8601
                let feed = try await observer.latest("home/reef/feed") { $0["active"] == false && $0["back_at"]?["Return Pump"] != nil }
                #expect(feed["back_at"] == ["Return Pump": .string(backAt)])
                #expect(feed["restore_after"] == ["Return Pump": 30])
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["restore_at"] == .string(backAt) && $0["restore_state"] == "on" }
            }
            try await fixture.runBridge(yaml: yaml) { fixture, observer in
                try await fixture.virtualClock.advance(by: .seconds(29))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
                try await fixture.virtualClock.advance(by: .seconds(1))
                // As in aFeedIsRestoredAcrossARestart: the restarted bridge's timers may come after the advance.
                try await waitUntil("the pump is back on", timeout: .seconds(10)) { fixture.simulator.outlet(Outlets.returnPump)?.isOn == true }
                _ = try await observer.latest("home/reef/feed") { $0["back_at"] == [:] }
            }
        }
    }

    /// A feed that starts while the pump waits for its staged return takes it over: the pump's
    /// earlier return does not come during the new feed, and after it the pump is back as it was
    /// before the first (on, though it was off when the second began).
    @Test func aFeedDuringAStagedReturnTakesItOver() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            try await fixture.runBridge(yaml: ReefFixture.yaml(fixture.simulator) + Self.stagedYAML) { fixture, observer in
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                #expect(try await observer.command("home/reef/feed/start", #"{"for":10}"#)["status"] == "ok")
                try await fixture.virtualClock.advance(by: .seconds(10))
                let second = try await observer.command("home/reef/feed/start", #"{"for":40}"#)
                #expect(second["status"] == "ok", "\(second)")
                // The first feed's staged return was due now.
                try await fixture.virtualClock.advance(by: .seconds(30))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
                try await fixture.virtualClock.advance(by: .seconds(10))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
                try await fixture.virtualClock.advance(by: .seconds(30))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
            }
        }
    }

    static let stagedYAML = "  feed:\n    outlets: [Heater, {outlet: \"Return Pump\", restore_after: 30}]\n"

    @Test func badFeedCommandsSwitchNothing() async throws {
        try await run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            let before = switchCalls(fixture)
            for (topic, payload) in [
                ("feed/start", #"{"for":0}"#), ("feed/start", "soon"), ("feed/start", #"{"minutes":5}"#), ("feed/start", "[1]"),
                ("feed/start", #"{"for":1,"until":"2030-01-01T00:00:00Z"}"#), ("feed/cancel", "now"), ("feed/cancel", ""),
            ] {
                let answer = try await observer.command("home/reef/\(topic)", payload)
                #expect(answer["status"] == "error", "\(topic) \(payload) → \(answer)")
            }
            #expect(switchCalls(fixture) == before)
        }
    }

    @Test func withoutFeedConfiguredTheCommandSaysSo() async throws {
        try await ReefFixture.run { fixture, observer in
            let answer = try await observer.command("home/reef/feed/start")
            #expect(answer["error"]?.stringValue?.contains("reef.feed") == true, "\(answer)")
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
        }
    }
}
