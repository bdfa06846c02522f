import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// A scene whose OFF meets an outlet service that fails: the restore is kept, the scene says
/// `ending`, and the restore is carried out once the service is back, with no new command.
@Suite struct ReefSceneTests {
    static let scene = "scenes:\n  - name: Quiet\n    parts:\n      - reef_outlet: Return Pump\n        state: off\n"

    @Test func aRestoreThatFailsAtOffIsKeptAndCarriedOutOnceTheServiceIsBack() async throws {
        try await ReefFixture.withLastingSimulator(clock: ManualClock()) { fixture in
            try await fixture.runBridge(yaml: ReefFixture.yaml(fixture.simulator) + Self.scene) { fixture, observer in
                _ = try await observer.latest("home/reef/outlet/return-pump") { $0["state"] == "on" }
                #expect(try await observer.command("home/scene/quiet/set", "ON")["status"] == "ok")
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)

                try await fixture.simulator.setFault(.serverError, on: .outlets)
                let off = try await observer.command("home/scene/quiet/set", "OFF")
                #expect(off["status"] == "error")
                #expect(off["error"]?.stringValue?.contains("could not be carried out yet; they are tried again every 15 s") == true, "\(off)")
                #expect(off["data"]?["state"] == "ending")
                _ = try await observer.latest("home/scene/quiet") { $0["state"] == "ending" }
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)

                try await fixture.simulator.setFault(nil, on: .outlets)
                try await fixture.virtualClock.advance(by: .seconds(14))
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == false)
                try await fixture.virtualClock.advance(by: .seconds(1))
                _ = try await observer.latest("home/scene/quiet") { $0["state"] == "off" }
                #expect(fixture.simulator.outlet(Outlets.returnPump)?.isOn == true)
            }
        }
    }
}
