import BridgeCore
import Testing

@Suite struct TopicKeyTests {
    @Test func slugsAreLowercaseWordsJoinedByDashes() {
        #expect(TopicKey.slug("Return Pump", fallback: "x") == "return-pump")
        #expect(TopicKey.slug("  Heater #2 (display) ", fallback: "x") == "heater-2-display")
        #expect(TopicKey.slug("Küche", fallback: "x") == "kuche")
        #expect(TopicKey.slug("🐠", fallback: "outlet") == "outlet")
    }

    @Test func collisionsAreResolvedByIDWhateverTheListOrder() {
        let things = [(id: "b-22222222", name: "Heater"), (id: "a-11111111", name: "heater"), (id: "c", name: "Pump")]
        let keys = TopicKey.assign(things, fallback: "x")
        #expect(keys == ["a-11111111": "heater", "b-22222222": "heater-22222222", "c": "pump"])
        #expect(TopicKey.assign(things.reversed(), fallback: "x") == keys)
    }
}
