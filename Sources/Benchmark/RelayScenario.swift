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
    /// Every command the relay is sent.
    static let command = BridgeCommand(topic: "bench/relay", payload: "30")

    /// Runs `body` while the relay answers on `command`'s topic, from a task without the loop's
    /// preference (where the measuring client runs in the other scenarios). The relay is
    /// connected, subscribed and logged in before, so one that cannot start fails at once.
    static func running<T: Sendable>(in world: BenchmarkWorld, _ body: @Sendable @escaping () async throws -> T) async throws -> T {
        let mqtt = try MQTTClient(
            configuration: MQTTConfiguration(clientID: uniqueClientID("relay"), host: world.broker.host, port: world.broker.port),
            logger: testLogger("bench-relay"))
        try await mqtt.connect(timeout: .seconds(10))
        do {
            try await mqtt.subscribe(command.topic, qos: .atLeastOnce)
            let result = try await PauseCall.withSession(baseURL: world.piHoles["alpha"]!.baseURL) { call in
                await withTaskGroup(of: Void.self) { relay in
                    // Inherits the session's preference: the messages are read on the bridge's loop.
                    relay.addTask { await Self.relay(mqtt, through: call) }
                    let result: Result<T, any Error>
                    do {
                        result = .success(try await withTaskExecutorPreference(globalConcurrentExecutor) { try await body() })
                    } catch {
                        result = .failure(error)
                    }
                    // Ends the relay's reading, so that the group can end.
                    await mqtt.disconnect()
                    return result
                }
            }
            return try result.get()
        } catch {
            await mqtt.disconnect()
            throw error
        }
    }

    /// `rounds` to the relay, one at a time; throws if one failed or was lost.
    static func samples(_ rounds: Range<Int>, in world: BenchmarkWorld) async throws -> [Duration] {
        let samples = await CommandLatencyScenario.samples(rounds, in: world) { _ in command }
        guard samples.failures == 0 else { throw FloorError("the relay failed or lost \(samples.failures) commands") }
        return samples.answers
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
