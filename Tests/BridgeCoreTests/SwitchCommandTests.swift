import BridgeCore
import Foundation
import Testing

@Suite struct SwitchCommandTests {
    @Test func wordsAndJSONTimedOrNot() throws {
        #expect(try SwitchCommand.parse(.text("off"), command: "x") == SwitchCommand(enabled: false))
        let timed = try SwitchCommand.parse(.json(["enabled": true, "for": 90]), command: "x")
        #expect(timed == SwitchCommand(enabled: true, duration: .seconds(90)))
    }

    @Test func flagsAreTakenOnlyWhenAllowedAndOnlyAsBooleans() throws {
        let forced = try SwitchCommand.parse(.json(["enabled": false, "force": true]), command: "x", flags: ["force"])
        #expect(forced.flags == ["force"])
        #expect(try SwitchCommand.parse(.json(["enabled": false, "force": false]), command: "x", flags: ["force"]).flags.isEmpty)
        let notAllowed = #expect(throws: CommandError.self) { try SwitchCommand.parse(.json(["enabled": false, "force": true]), command: "rule set") }
        #expect(notAllowed?.message.contains("unknown key 'force'") == true)
        let notBoolean = #expect(throws: CommandError.self) {
            try SwitchCommand.parse(.json(["enabled": false, "force": "yes"]), command: "x", flags: ["force"])
        }
        #expect(notBoolean?.message.contains("\"force\" must be true or false") == true)
    }
}
