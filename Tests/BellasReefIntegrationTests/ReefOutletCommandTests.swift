import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import Testing

@Suite(.serialized) struct ReefOutletCommandTests {
    /// Switching requests (not state reads) the outlets service received.
    private func switches(_ fixture: ReefFixture) -> [BellasReefSimulator.RecordedRequest] {
        fixture.simulator.requests(.outlets).filter { $0.method == "POST" }
    }

    @Test func onOffAndToggleAreAnsweredWithTheStateReadBack() async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "off" }
            let on = try await observer.command("home/reef/outlet/heater/set", "ON")
            #expect(on["status"] == "ok", "\(on)")
            #expect(on["data"]?["state"] == "on")
            #expect(fixture.simulator.outlet(Outlets.heater)?.isOn == true)
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "on" }

            #expect(try await observer.command("home/reef/outlet/heater/set", "off")["data"]?["state"] == "off")
            #expect(try await observer.command("home/reef/outlet/heater/set", "Toggle")["data"]?["state"] == "on")
            #expect(try await observer.command("home/reef/outlet/heater/set", #"{"state":"toggle"}"#)["data"]?["state"] == "off")
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "off" }
            // By id, as well as by key.
            let byID = try await observer.command("home/reef/outlet/\(Outlets.heater.uppercased())/set", #"{"state":"on"}"#)
            #expect(byID["data"]?["state"] == "on", "\(byID)")
            #expect(fixture.simulator.outlet(Outlets.heater)?.isOn == true)
            let posts = switches(fixture).map { String($0.path.split(separator: "/").last ?? "") }
            #expect(posts == ["turn_on", "turn_off", "toggle", "toggle", "turn_on"])
            // Each answer came from a state read after the switch.
            let last = fixture.outletCalls(Outlets.heater).last
            #expect(last?.method == "GET" && last?.path.hasSuffix("/state") == true)
        }
    }

    @Test func aDisabledOutletAnswersTheControllersError() async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/offline-plug")
            let response = try await observer.command("home/reef/outlet/offline-plug/set", "ON")
            #expect(response["status"] == "error" && response["code"] == "upstream_refused")
            let message = response["error"]?.stringValue ?? ""
            #expect(message.contains("outlet_disabled") && message.contains("409") && message.contains("disabled"), "\(message)")
            #expect(switches(fixture).map(\.path) == ["/api/smartoutlets/outlets/\(Outlets.disabledPlug)/turn_on"])
        }
    }

    @Test func anUnknownOutletIsRefusedWithoutAnyCall() async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/outlets")
            let response = try await observer.command("home/reef/outlet/skimmer/set", "ON")
            #expect(response["error"] == "unknown outlet 'skimmer' (known: heater, offline-plug, return-pump)")
            #expect(response["code"] == "unknown_target")
            let unknownID = try await observer.command("home/reef/outlet/00000000-0000-4000-8000-000000000000/set", "ON")
            #expect(unknownID["error"]?.stringValue?.hasPrefix("unknown outlet") == true)
            #expect(switches(fixture).isEmpty)
            #expect(!fixture.simulator.requests(.outlets).contains { $0.path.contains("skimmer") || $0.path.contains("00000000-0000") })
        }
    }

    @Test func malformedPayloadsAreRefusedWithoutAnyCall() async throws {
        try await ReefFixture.run { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
            for bad in ["maybe", #"{"state":1}"#, #"{"state":"off","for":-5}"#, #"{"state":"off","for":1.5}"#, "", #"["on"]"#,
                        #"{"state":"off","for":5,"until":"2030-01-01T00:00:00Z"}"#, #"{"state":"off","forr":5}"#] {
                let response = try await observer.command("home/reef/outlet/return-pump/set", bad)
                #expect(response["status"] == "error" && response["code"] == "invalid_payload", "\(bad) → \(response)")
            }
            #expect(switches(fixture).isEmpty)
            #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
        }
    }

    /// A plug that never answers, or refuses: the controller's own connection error either way
    /// (it never sends its 504), which a program reads as `upstream_unavailable`.
    @Test func aPlugThatFailsAnswersTheControllersCode() async throws {
        var options = BellasReefSimulator.Options()
        options.plugFailureDelay = .milliseconds(100)
        try await ReefFixture.run(options: options) { fixture, observer in
            _ = try await observer.latest("home/reef/outlet/heater") { $0["state"] == "off" }
            fixture.simulator.updateOutlet(Outlets.heater) { $0.plug = .timingOut }
            let silent = try await observer.command("home/reef/outlet/heater/set", "ON")
            #expect(silent["error"]?.stringValue?.contains("outlet_connection_error") == true, "\(silent)")
            #expect(silent["code"] == "upstream_unavailable")
            fixture.simulator.updateOutlet(Outlets.heater) { $0.plug = .refusingConnections }
            let refused = try await observer.command("home/reef/outlet/heater/set", "ON")
            #expect(refused["error"]?.stringValue?.contains("outlet_connection_error") == true, "\(refused)")
            #expect(refused["code"] == "upstream_unavailable")
        }
    }
}
