import MQTT
import Testing

@testable import BridgeCore

@Suite struct CommandTests {
    private func message(_ payload: [UInt8], retain: Bool = false, properties: MQTTProperties = .init()) -> MQTTMessage {
        MQTTMessage(topic: "home/pihole/pause", payload: payload, qos: .atLeastOnce, retain: retain, properties: properties)
    }

    private func parse(_ text: String) -> Result<CommandRequest, CommandError>? {
        CommandRequest.parse(message(Array(text.utf8)), below: "home/pihole")
    }

    @Test func retainedCommandsAreIgnored() {
        #expect(CommandRequest.parse(message(Array("30".utf8), retain: true), below: "home/pihole") == nil)
    }

    @Test func payloadShapes() throws {
        #expect(try parse("")?.get().payload == .empty)
        #expect(try parse("  30 \n")?.get().payload == .text("30"))
        // White space at either end, ASCII or not, is dropped; a visible end keeps what it ends.
        for padded in ["on ", " on", "\ton", "on\r\n", "on\u{A0}", "\u{3000}on", "\u{2028}on\u{85}"] {
            #expect(try parse(padded)?.get().payload == .text("on"), "\(padded.debugDescription)")
        }
        #expect(try parse("on\u{301}")?.get().payload == .text("on\u{301}"))
        #expect(try parse("\"ads.example\"")?.get().payload == .text("ads.example"))
        let json = try parse("{\"seconds\": 30, \"transaction\": \"t-1\"}")?.get()
        #expect(json?.payload == .json(["seconds": 30, "transaction": "t-1"]))
        #expect(json?.transaction == "t-1")
        #expect(try parse("")?.get().path == ["pause"])
    }

    /// Levels as MQTT has them: split at every `/` byte, empty ones kept, any UTF-8 in them.
    @Test func theTopicsLevelsBelowTheRootAreThePath() throws {
        let path = { (topic: String) in
            try CommandRequest.parse(MQTTMessage(topic: topic, payload: [], qos: .atLeastOnce, retain: false), below: "hôme/pihole")?.get().path
        }
        #expect(try path("hôme/pihole/group/Kinderzimmer ü/set") == ["group", "Kinderzimmer ü", "set"])
        #expect(try path("hôme/pihole//x/") == ["", "x", ""])
        #expect(try path("hôme/pihole/group/\u{301}a/set") == ["group", "\u{301}a", "set"])
    }

    @Test func badPayloadsAreRefused() {
        #expect(throws: CommandError.self) { try parse("{\"seconds\": ")?.get() }
        let invalidUTF8 = CommandRequest.parse(message([0xFF, 0xFE, 0x41]), below: "home/pihole")
        #expect(throws: CommandError("payload is not valid UTF-8")) { try invalidUTF8?.get() }
        let oversized = CommandRequest.parse(message([UInt8](repeating: 0x31, count: 64 * 1024 + 1)), below: "home/pihole")
        #expect(throws: CommandError.self) { try oversized?.get() }
        let atLimit = CommandRequest.parse(message([UInt8](repeating: 0x31, count: 64 * 1024)), below: "home/pihole")
        #expect(throws: Never.self) { try atLimit?.get() }
    }

    @Test func responsesFollowTheContract() {
        let ok = CommandResponse(result: .success(["blocking": "disabled"]), transaction: "t-1")
        #expect(ok.payload == ["status": "ok", "data": ["blocking": "disabled"], "transaction": "t-1"])
        let failed = CommandResponse(result: .failure(CommandError("nope")), transaction: nil)
        #expect(failed.payload == ["status": "error", "error": "nope", "code": "invalid_payload"])
    }

    @Test func responsesGoWhereTheCommandAsks() {
        let plain = CommandResponse.destination(for: message([]))
        #expect(plain.topic == "home/pihole/pause/response")
        #expect(plain.properties.correlationData == nil)
        let v5 = CommandResponse.destination(for: message([], properties: MQTTProperties(responseTopic: "me/reply", correlationData: [1, 2, 3])))
        #expect(v5.topic == "me/reply")
        #expect(v5.properties.correlationData == [1, 2, 3])
    }

    @Test func topicFilters() {
        #expect(TopicFilter.matches("home/pihole/+/pause", topic: "home/pihole/main/pause"))
        #expect(!TopicFilter.matches("home/pihole/+/pause", topic: "home/pihole/pause"))
        #expect(!TopicFilter.matches("home/pihole/pause", topic: "home/pihole/pause/response"))
        #expect(TopicFilter.matches("homeassistant/+/node/+/config", topic: "homeassistant/switch/node/x/config"))
        #expect(TopicFilter.matches("home/#", topic: "home/a/b"))
        #expect(TopicFilter.matches("home/#", topic: "home"))
        #expect(TopicFilter.matches("#", topic: "a"))
        #expect(!TopicFilter.matches("home/+", topic: "home"))
        #expect(!TopicFilter.matches("home", topic: "home/a"))
        #expect(TopicFilter.matches("a//b", topic: "a//b"))
        #expect(!TopicFilter.matches("a//b", topic: "a/x/b"))
        #expect(TopicFilter.matches("+/+", topic: "/"))
        #expect(!TopicFilter.matches("home/pihole/pause", topic: "home/pihole/paus"))
        #expect(TopicFilter.matches("a/", topic: "a/") && !TopicFilter.matches("a/", topic: "a"))
        #expect(TopicFilter.matches("", topic: "") && !TopicFilter.matches("", topic: "/"))
        #expect(TopicFilter.matches("hôme/+/ü", topic: "hôme/ë/ü") && !TopicFilter.matches("hôme/+/ü", topic: "hôme/ë/u"))
    }
}
