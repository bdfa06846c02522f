import BridgeCore
import Testing

@Suite struct RuntimeEntityBuilderTests {
    private let device = DiscoveryDevice(identifier: "d", name: "D", model: "M", manufacturer: "T")

    private func entities(_ names: [String]) -> [DiscoveryEntity] {
        names.map { DiscoveryEntity(component: "switch", objectID: $0, name: $0, device: device, availabilityTopics: [], options: [:]) }
    }

    @Test func buildsOnlyWhenWhatTheyAreMadeOfChanges() {
        let builder = RuntimeEntityBuilder<[String]>()
        var builds = 0
        func build(_ names: [String]) -> [DiscoveryEntity] {
            builds += 1
            return entities(names)
        }
        #expect(builder.entities(of: ["a"], build)?.map(\.objectID) == ["a"])
        #expect(builder.entities(of: ["a"], build) == nil)
        #expect(builder.entities(of: ["a", "b"], build)?.map(\.objectID) == ["a", "b"])
        #expect(builder.entities(of: ["a"], build)?.map(\.objectID) == ["a"])
        #expect(builds == 3)
    }
}
