@testable import BellasReefIntegration
import BridgeCore
import Testing

@Suite struct ReefCommandParsingTests {
    private func parse(_ payload: CommandRequest.Payload) throws(CommandError) -> OutletSwitch {
        guard case .setOutlet(_, let change) = try ReefCommand.parse(CommandRequest(path: ["outlet", "heater", "set"], payload: payload)) else {
            throw CommandError("not an outlet command")
        }
        return change
    }

    @Test func wordsAndJSON() throws {
        #expect(try parse(.text("ON")) == OutletSwitch(action: .on, duration: nil))
        #expect(try parse(.text("off")) == OutletSwitch(action: .off, duration: nil))
        #expect(try parse(.text("ToGgLe")) == OutletSwitch(action: .toggle, duration: nil))
        #expect(try parse(.json(["state": "off", "for": 600])) == OutletSwitch(action: .off, duration: .seconds(600)))
    }

    @Test func malformedPayloadsAreRefused() {
        for payload: CommandRequest.Payload in [
            .empty, .text("maybe"), .json(["state": 1]), .json(["state": "off", "for": -5]), .json(["state": "off", "for": "10m"]),
            .json(["on"]), .json(["state": "sideways"]), .json(["state": "on", "delay": 3]),
        ] {
            #expect(throws: CommandError.self, "\(payload)") { try parse(payload) }
        }
        #expect(throws: CommandError.self) { try ReefCommand.parse(CommandRequest(path: ["outlet", "heater"], payload: .text("ON"))) }
    }
}
