import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import Synchronization
import Testing

/// A client in the bridge's own process (the page): its commands take the queue MQTT's take and
/// are answered to it alone; its observer hears every publish and every answer, whoever sent the
/// command, with the credential topics marked.
@Suite struct InProcessClientTests {
    final class Recorder: BridgeObserver {
        let published = Mutex<[(topic: String, retain: Bool, carriesCredentials: Bool)]>([])
        let answered = Mutex<[AnsweredCommand]>([])

        func published(_ topic: String, _ payload: [UInt8], retain: Bool, carriesCredentials: Bool) {
            published.withLock { $0.append((topic, retain, carriesCredentials)) }
        }

        func answered(_ command: AnsweredCommand) {
            answered.withLock { $0.append(command) }
        }
    }

    /// Echo's switches are everyday commands; its `echo` carries credentials (as a voucher would).
    final class HouseholdEcho: Integration, EverydayCommands, CredentialTopics {
        let echo = EchoIntegration()
        var name: String { echo.name }
        var commandFilters: [String] { echo.commandFilters }
        let everydayCommands = ["+/set"]
        let credentialTopics = ["echo"]

        func run(context: IntegrationContext) async { await echo.run(context: context) }
        func lanes(for command: CommandRequest) -> Set<String> { echo.lanes(for: command) }
        func handle(_ command: CommandRequest, context: IntegrationContext) async throws(CommandError) -> JSONValue? {
            try await echo.handle(command, context: context)
        }
        func shutdown() async { await echo.shutdown() }
    }

    @Test func itsCommandsAreAnsweredToItAloneAndEveryAnswerIsObserved() async throws {
        try await withTestBroker { broker in
            let recorder = Recorder()
            let integration = HouseholdEcho()
            try await Observer.watching(broker, subscribe: ["#"]) { watcher in
                try await withRunningBridge(broker: broker, integrations: [integration], bridgeObserver: recorder) { bridge in
                    // Published by the integration's run, which starts once the bridge serves.
                    _ = try await watcher.latest("home/echo/availability") { $0 == "online" }
                    #expect(bridge.isEverydayCommand("home/echo/thing/set"))
                    #expect(!bridge.isEverydayCommand("home/echo/echo") && !bridge.isEverydayCommand("home/other/thing/set"))

                    let answer = await bridge.send(topic: "home/echo/echo", payload: Array("hello".utf8))
                    #expect(answer.payload["data"]?["text"] == "hello")
                    let unknown = await bridge.send(topic: "home/nothing/here", payload: [])
                    #expect(unknown.payload["code"] == "unknown_target")
                    #expect(integration.echo.handled.map(\.path) == [["echo"]])
                    #expect(integration.echo.handled.first?.answeredPrivately == true, "its answer reaches it alone (a voucher's code may be in it)")

                    let overMQTT = try await watcher.command("home/echo/thing/set", "ON")
                    #expect(overMQTT["status"] == "ok")
                    try await waitUntil("both answers observed") { recorder.answered.withLock { $0.count } == 2 }
                    let answered = recorder.answered.withLock { $0 }
                    #expect(answered.map(\.topic) == ["home/echo/echo", "home/echo/thing/set"])
                    #expect(answered.map(\.sentInProcess) == [true, false])
                    #expect(answered.map(\.carriesCredentials) == [true, false])
                    #expect(answered[0].response == answer)

                    // The in-process answer went nowhere on the broker: only MQTT's did.
                    let answers = watcher.recorder.messages.filter { $0.topic.hasSuffix("/response") || $0.topic.hasPrefix("home/replies") }
                    #expect(answers.count == 1, "\(answers.map(\.topic))")
                    let published = recorder.published.withLock { $0 }
                    #expect(published.contains { $0.topic == "home/echo" && $0.retain && !$0.carriesCredentials })
                }
            }
        }
    }
}
