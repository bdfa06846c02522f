import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import Synchronization
import Testing

/// An integration whose entities come and go while it runs, like rules on a controller.
private final class ChangingIntegration: Integration, HomeAssistantEntities {
    let name = "changing"
    let commandFilters: [String] = []
    let hasRuntimeEntities = true
    private let requested = Mutex<[[String]]>([])
    private let wakeup = Wakeup()

    /// Makes the running integration set exactly these entities next.
    func set(_ ids: [String]) {
        requested.withLock { $0.append(ids) }
        wakeup.signal()
    }

    func discoveryEntities(topics: IntegrationTopics) -> [DiscoveryEntity] { [] }

    func run(context: IntegrationContext) async {
        while !Task.isCancelled {
            for ids in requested.withLock({ list in defer { list = [] }; return list }) {
                await context.setRuntimeEntities(ids.map { entity($0, context.topics) })
            }
            await wakeup.wait(atMost: .seconds(60))
        }
    }

    private func entity(_ id: String, _ topics: IntegrationTopics) -> DiscoveryEntity {
        DiscoveryEntity(
            component: "switch", objectID: "changing_\(id)", name: id,
            device: DiscoveryDevice(identifier: "changing", name: "Changing", model: "Test", manufacturer: "Tests"),
            availabilityTopics: [], options: ["command_topic": .string(topics.topic("\(id)/set"))])
    }

    func handle(_ command: CommandRequest, context: IntegrationContext) async throws(CommandError) -> JSONValue? { nil }
    func shutdown() async {}
}

private func config(_ id: String) -> String { "homeassistant/switch/home2mqtt_home/changing_\(id)/config" }

@Suite struct RuntimeEntityTests {
    @Test func entitiesAppearAndDisappearWhileRunning() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let observer = try await Observer(broker, subscribe: ["homeassistant/#"])
        defer { Task { await observer.disconnect() } }
        let integration = ChangingIntegration()
        try await withRunningBridge(broker: broker, integrations: [integration]) { _ in
            try await expectEntitiesFollow(integration, on: observer.recorder)
        }
    }

    /// A controller that is down when the bridge starts must not cost Home Assistant its entities:
    /// their retained configs stay until the integration has said which entities it has.
    @Test func unknownConfigsWaitUntilTheIntegrationHasReported() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let observer = try await Observer(broker, subscribe: ["homeassistant/#"])
        defer { Task { await observer.disconnect() } }
        for id in ["kept", "gone"] { try await observer.send(config(id), "{\"name\":\"\(id)\"}", retain: true) }
        let integration = ChangingIntegration()
        try await withRunningBridge(broker: broker, integrations: [integration]) { _ in
            // The bridge has subscribed and seen both retained configs; it has cleared neither.
            _ = try await observer.recorder.first(topic: "homeassistant/binary_sensor/home2mqtt_home/bridge_connection/config")
            try await Task.sleep(for: .milliseconds(500))
            #expect(!observer.recorder.messages.contains { $0.payload.isEmpty })
            integration.set(["kept"])
            _ = try await observer.recorder.first(timeout: .seconds(5)) { $0.topic == config("gone") && $0.payload.isEmpty }
            #expect(!observer.recorder.messages.contains { $0.topic == config("kept") && $0.payload.isEmpty })
        }
    }
}

private func expectEntitiesFollow(_ integration: ChangingIntegration, on recorder: MessageRecorder) async throws {
    integration.set(["a", "b"])
    for id in ["a", "b"] {
        _ = try await recorder.first(timeout: .seconds(5)) { $0.topic == config(id) && !$0.payload.isEmpty }
    }
    integration.set(["b", "c"])
    _ = try await recorder.first(timeout: .seconds(5)) { $0.topic == config("a") && $0.payload.isEmpty }
    _ = try await recorder.first(timeout: .seconds(5)) { $0.topic == config("c") && !$0.payload.isEmpty }
    #expect(!recorder.messages.contains { $0.topic == config("b") && $0.payload.isEmpty })
}
