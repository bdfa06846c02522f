import BridgeCore
import Testing

@Suite struct TopicKeyTests {
    @Test func slugs() {
        #expect(TopicKey.slug("Downtime Emma", fallback: "x") == "downtime-emma")
        #expect(TopicKey.slug("  Return pump (main)!", fallback: "x") == "return-pump-main")
        #expect(TopicKey.slug("Ähm/+#", fallback: "id-1") == "hm")
        #expect(TopicKey.slug("水泵", fallback: "id-1a2b3c4d") == "id-1a2b3c4d")
    }

    @Test func keysStayWhileNamesStayAndCollisionsTakeTheID() {
        var keys = TopicKeys()
        let first = keys.update([(id: "AAAAAAAA-1", name: "Downtime Emma"), (id: "bbbbbbbb-2", name: "Downtime Leo")])
        #expect(first == ["AAAAAAAA-1": "downtime-emma", "bbbbbbbb-2": "downtime-leo"])
        // A second rule of the same name (another console, say) gets its id's start; the first keeps its key,
        // even when the upstream lists the newcomer first.
        let second = keys.update([(id: "cccccccc-3", name: "downtime emma"), (id: "AAAAAAAA-1", name: "Downtime Emma")])
        #expect(second == ["AAAAAAAA-1": "downtime-emma", "cccccccc-3": "downtime-emma-cccccccc"])
        // Renamed: the key follows the name; the old key is free again.
        let third = keys.update([(id: "AAAAAAAA-1", name: "Downtime Emily"), (id: "cccccccc-3", name: "downtime emma")])
        #expect(third["AAAAAAAA-1"] == "downtime-emily")
        #expect(third["cccccccc-3"] == "downtime-emma-cccccccc")
    }

    /// 1-wire probes' addresses share their first 8 characters (`28-00000…`): two probes of one
    /// name once got one key, and the bridge died building the probe index. Every key is unique,
    /// and an id listed twice counts once.
    @Test func idsAlikeInTheirStartAndIdsListedTwiceStillGetUniqueKeys() {
        var keys = TopicKeys()
        let probes = keys.update([
            (id: "28-0000012345", name: "Tank"), (id: "28-0000067890", name: "Tank"), (id: "28-0000011111", name: "Tank"),
            (id: "x", name: "tank 28-00000"), (id: "28-0000012345", name: "Sump"),
        ])
        #expect(probes == ["28-0000012345": "tank", "28-0000067890": "tank-28-00000", "28-0000011111": "tank-2", "x": "tank-28-00000-x"])
        #expect(Set(probes.values).count == probes.count)
    }
}
