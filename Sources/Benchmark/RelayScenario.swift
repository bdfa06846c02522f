import BenchmarkReport
import BridgeTestSupport
import JSONDocument
import MQTT
import UpstreamHTTP

/// A bare relay beside the floor: the bridge's own parts and nothing else. A second `MQTTClient`
/// (libmosquitto on its network thread) whose messages are read on the bridge's event loop, as
/// the bridge reads them; each makes the pause's own call (`PauseCall`) and is answered on its
/// response topic. No parsing, routing, lanes, time limits or state.
///
/// The floor counts what the broker and the upstream cost; the relay adds what putting them
/// together costs on this machine (libmosquitto's thread to the loop and back, its reads and
/// acknowledgements), and the pause over the relay is what the bridge's own code costs.
enum RelayScenario {
    static let commandTopic = "bench/relay"

    static func measure(count: Int, in world: BenchmarkWorld) async throws -> LatencySummary? {
        let mqtt = try MQTTClient(
            configuration: MQTTConfiguration(clientID: uniqueClientID("relay"), host: world.broker.host, port: world.broker.port),
            logger: testLogger("bench-relay"))
        try await mqtt.connect(timeout: .seconds(10))
        let latency: BenchmarkResults.CommandLatency
        do {
            try await mqtt.subscribe(commandTopic, qos: .atLeastOnce)
            // Logged in before the first command: a relay that cannot log in fails the run at once.
            latency = try await PauseCall.withSession(baseURL: world.piHoles["alpha"]!.baseURL) { call in
                await withTaskGroup(of: Void.self) { relay in
                    // Inherits the session's preference: the messages are read on the bridge's loop.
                    relay.addTask { await Self.relay(mqtt, through: call) }
                    // The measuring client's side runs where it runs for the other scenarios.
                    let latency = await withTaskExecutorPreference(globalConcurrentExecutor) {
                        await CommandLatencyScenario.measure("relay", count: count, in: world) { _ in
                            BridgeCommand(topic: commandTopic, payload: "30")
                        }
                    }
                    await mqtt.disconnect()
                    return latency
                }
            }
        } catch {
            await mqtt.disconnect()
            throw error
        }
        guard latency.failures == 0 else { throw FloorError("the relay failed or lost \(latency.failures) commands") }
        return latency.latency
    }

    /// Every command: the call, then `{"status":"ok"}` (`"error"` if the call failed) on its
    /// response topic, awaited as the bridge awaits its answers. Ends when `mqtt` disconnects.
    private static func relay(_ mqtt: MQTTClient, through call: PauseCall) async {
        let ok = JSONValue.object(["status": "ok"]).encoded(), failed = JSONValue.object(["status": "error"]).encoded()
        for await message in mqtt.messages {
            let answer = (try? await call.make()) != nil ? ok : failed
            guard let responseTopic = message.properties.responseTopic else { continue }
            try? await mqtt.publish(
                responseTopic, payload: answer, qos: .atLeastOnce,
                properties: MQTTProperties(correlationData: message.properties.correlationData, contentType: "application/json"))
        }
    }
}
