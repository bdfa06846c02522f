import BridgeCore
import BridgeTestSupport
import MQTT
import MQTTTestSupport
import Testing

@Suite struct BridgeTests {
    @Test func announcesItselfAndItsIntegrations() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let yaml = "mqtt:\n  username: bridge\n  password: hunter2\n"
        try await withRunningBridge(broker: broker, yaml: yaml, integrations: [EchoIntegration()]) { _ in
            let observer = try await Observer(broker, subscribe: ["home/#"])
            defer { Task { await observer.disconnect() } }
            #expect(try await observer.latest("home/bridge/state") == .string("online"))
            let late = try await Observer(broker, subscribe: ["home/bridge/state"])
            #expect(try await late.recorder.first(topic: "home/bridge/state").retain)
            await late.disconnect()
            let info = try await observer.latest("home/bridge/info")
            #expect(info["version"] == .string(Bridge.version))
            #expect(info["integrations"] == ["echo"])
            #expect(info["config"]?["mqtt"]?["password"] == "**redacted**")
            #expect(!(observer.recorder.messages.compactMap(\.payloadString).joined().contains("hunter2")))
            #expect(try await observer.latest("home/echo/availability") == .string("online"))
            #expect(try await observer.latest("home/echo")["ready"] == true)
        }
    }

    @Test func answersOnTheResponseTopicWithCorrelationData() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        try await withRunningBridge(broker: broker, integrations: [EchoIntegration()]) { _ in
            let observer = try await Observer(broker, subscribe: ["me/#", "home/#"])
            defer { Task { await observer.disconnect() } }
            _ = try await observer.latest("home/echo/availability")
            try await observer.send("home/echo/echo", "{\"a\":1,\"transaction\":\"t-7\"}", properties: MQTTProperties(responseTopic: "me/reply", correlationData: [9, 8, 7]))
            let reply = try await observer.recorder.first(topic: "me/reply")
            #expect(reply.properties.correlationData == [9, 8, 7])
            #expect(JSONValue.parse(reply.payload) == ["status": "ok", "data": ["a": 1, "transaction": "t-7"], "transaction": "t-7"])

            try await observer.send("home/echo/echo", "hello")
            let plain = try await observer.recorder.first(topic: "home/echo/echo/response")
            #expect(JSONValue.parse(plain.payload) == ["status": "ok", "data": ["text": "hello"]])
        }
    }

    /// Where its upstream connections live (`UpstreamHTTPClient`): a command's request and its
    /// answer then cross no thread.
    @Test func commandsRunOnTheBridgesEventLoop() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        try await withRunningBridge(broker: broker, integrations: [EchoIntegration()]) { _ in
            let observer = try await Observer(broker, subscribe: ["home/#"])
            defer { Task { await observer.disconnect() } }
            _ = try await observer.latest("home/echo/availability")
            #expect(try await observer.command("home/echo/where") == ["status": "ok", "data": ["on_bridge_loop": true]])
        }
    }

    @Test func badCommandsGetErrorsAndTheBridgeKeepsRunning() async throws {
        try await withEchoBridgeTimingOutAfterOneSecond { echo, observer in
            let malformed = try await observer.command("home/echo/echo", "{\"a\":")
            #expect(malformed["status"] == "error")
            #expect(malformed["error"]?.stringValue?.contains("JSON") == true)

            let oversized = try await observer.command("home/echo/echo", String(repeating: "x", count: 64 * 1024 + 1))
            #expect(oversized["error"]?.stringValue?.contains("too large") == true)

            let replyTopic = "home/replies/utf8"
            try await observer.client.publish("home/echo/echo", payload: [0xC3, 0x28], qos: .atLeastOnce, properties: MQTTProperties(responseTopic: replyTopic))
            let invalid = try await observer.recorder.first(topic: replyTopic)
            #expect(JSONValue.parse(invalid.payload)?["error"] == "payload is not valid UTF-8")
            #expect(JSONValue.parse(invalid.payload)?["code"] == "invalid_payload")

            let unknown = try await observer.command("home/echo/fail")
            #expect(unknown == ["status": "error", "error": "echo refuses 'fail'", "code": "invalid_payload"])

            let slow = try await observer.command("home/echo/slow")
            #expect(slow["error"]?.stringValue?.hasPrefix("timed out") == true)

            // Still answering after all that.
            #expect(try await observer.command("home/echo/echo", "still here")["status"] == "ok")
            // What failed before parsing never reached the integration.
            #expect(echo.handled.map(\.path) == [["fail"], ["slow"], ["echo"]])
        }
    }

    /// A command's time limit cancels the task that runs its lane: the command waiting behind it
    /// must still run, in a task of its own, and not be taken for one refused at shutdown.
    @Test func aCommandWaitingBehindOneThatTimedOutStillRuns() async throws {
        try await withEchoBridgeTimingOutAfterOneSecond { echo, observer in
            async let first = observer.command("home/echo/slow")
            async let second = observer.command("home/echo/slow")
            for answer in try await [first, second] {
                #expect(answer == ["status": "error", "error": "timed out after 1.0 seconds", "code": "timeout"])
            }
            #expect(echo.handled.map(\.path) == [["slow"], ["slow"]])
        }
    }

    @Test func retainedCommandsAreIgnored() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let setup = try await Observer(broker, subscribe: [])
        try await setup.send("home/echo/echo", "left over", retain: true)
        await setup.disconnect()
        let echo = EchoIntegration()
        try await withRunningBridge(broker: broker, integrations: [echo]) { _ in
            let observer = try await Observer(broker, subscribe: ["home/#"])
            defer { Task { await observer.disconnect() } }
            // A live command sent after the bridge subscribed proves the retained one was seen first.
            #expect(try await observer.command("home/echo/echo", "live")["status"] == "ok")
            #expect(echo.handled.map(\.payload) == [.text("live")])
            #expect(!observer.recorder.messages.contains { $0.topic == "home/echo/echo/response" })
        }
    }

    @Test func shutdownStopsIntegrationsThenGoesOffline() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let observer = try await Observer(broker, subscribe: ["home/bridge/state"])
        defer { Task { await observer.disconnect() } }
        let echo = EchoIntegration()
        try await withRunningBridge(broker: broker, integrations: [echo]) { _ in
            _ = try await observer.latest("home/bridge/state") { $0 == "online" }
        }
        #expect(echo.shutdowns == 1)
        _ = try await observer.latest("home/bridge/state") { $0 == "offline" }
    }

    /// A bridge with `EchoIntegration` and a command time limit of 1 s, and an observer of `home/#`
    /// once the integration is online.
    private func withEchoBridgeTimingOutAfterOneSecond(_ body: (EchoIntegration, Observer) async throws -> Void) async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let echo = EchoIntegration()
        try await withRunningBridge(broker: broker, yaml: "bridge:\n  command_timeout: 1\n", integrations: [echo]) { _ in
            let observer = try await Observer(broker, subscribe: ["home/#"])
            defer { Task { await observer.disconnect() } }
            _ = try await observer.latest("home/echo/availability")
            try await body(echo, observer)
        }
    }
}
