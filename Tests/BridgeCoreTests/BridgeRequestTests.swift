import BridgeCore
import BridgeTestSupport
import Foundation
import Logging
import MQTT
import MQTTTestSupport
import Testing

/// `home/bridge/request/…` answered as every command is, and `home/bridge/logging`.
@Suite struct BridgeRequestTests {
    @Test func healthCheckIsAnsweredOnTheResponseTopicWithCorrelationData() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        try await withRunningBridge(broker: broker, integrations: [EchoIntegration()]) { _ in
            try await Observer.watching(broker, subscribe: ["me/#", "home/#"]) { observer in
                _ = try await observer.latest("home/echo/availability") { $0 == "online" }
                try await observer.send(
                    "home/bridge/request/health_check", "", properties: MQTTProperties(responseTopic: "me/health", correlationData: [4, 2]))
                let reply = try await observer.recorder.first(topic: "me/health")
                #expect(reply.properties.correlationData == [4, 2])
                let answer = JSONValue.parse(reply.payload)
                #expect(answer?["status"] == "ok")
                #expect(answer?["data"]?["broker_connected"] == true)
                #expect(answer?["data"]?["integrations"]?["echo"]?["available"] == true)
                #expect(answer?["data"]?["healthy"] == true)
            }
        }
    }

    @Test func aMQTT311ClientGetsItsTransactionBack() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        try await withRunningBridge(broker: broker, integrations: []) { _ in
            try await Observer.watching(broker, subscribe: ["home/#"], configure: { $0.protocolVersion = .v311 }) { observer in
                try await observer.send("home/bridge/request/health_check", #"{"transaction":"t-1"}"#)
                let reply = try await observer.recorder.first(topic: "home/bridge/request/health_check/response")
                let answer = JSONValue.parse(reply.payload)
                #expect(answer?["transaction"] == "t-1")
                #expect(answer?["data"]?["healthy"] == true, "no integration, and the broker is there")
                try await observer.send("home/bridge/request/log_level", #"{"level":"notice","transaction":2}"#)
                let level = try await observer.recorder.first(topic: "home/bridge/request/log_level/response")
                #expect(JSONValue.parse(level.payload) == ["status": "ok", "data": ["level": "notice"], "transaction": 2])
            }
        }
    }

    @Test func malformedAndUnknownRequestsGetErrors() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        try await withRunningBridge(broker: broker, integrations: []) { _ in
            try await Observer.watching(broker, subscribe: ["home/#"]) { observer in
                let broken = try await observer.command("home/bridge/request/health_check", "{\"transaction\":")
                #expect(broken["status"] == "error")
                #expect(broken["error"]?.stringValue?.contains("does not parse") == true)
                let unknown = try await observer.command("home/bridge/request/restart")
                #expect(unknown["error"]?.stringValue?.contains("health_check, log_level, reload") == true)
                let badLevel = try await observer.command("home/bridge/request/log_level", #"{"level":"loud"}"#)
                #expect(badLevel["error"]?.stringValue?.contains("trace, debug, info, notice, warning, error, critical") == true)
                let badKey = try await observer.command("home/bridge/request/log_level", #"{"lvl":"debug"}"#)
                #expect(badKey["error"]?.stringValue?.contains("unknown key 'lvl'") == true)
                let reload = try await observer.command("home/bridge/request/reload")
                #expect(reload["error"]?.stringValue?.contains("without a configuration") == true)
            }
        }
    }

    @Test func logLevelChangesWhatIsLoggedUntilSetBack() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let capture = LogCapture()
        let control = LogControl(level: .info)
        let logger = control.logger(wrapping: capture.logger("bridge"))
        try await withRunningBridge(broker: broker, integrations: [], logger: logger, logControl: control) { _ in
            try await Observer.watching(broker, subscribe: ["home/#"]) { observer in
                // Clearing a retained command is logged at debug level: seen only once that is the level.
                let debugLine = "ignored the clearing of a retained command"
                func clearARetainedCommand() async throws {
                    try await observer.send("home/bridge/request/health_check", "", retain: true)
                    // Handled in order: once this is answered, the clearing was seen.
                    _ = try await observer.command("home/bridge/request/health_check")
                }
                try await clearARetainedCommand()
                #expect(!capture.all.contains { $0.contains(debugLine) })

                #expect(try await observer.command("home/bridge/request/log_level", #"{"level":"debug"}"#)["data"] == ["level": "debug"])
                #expect(try await observer.command("home/bridge/request/log_level")["data"] == ["level": "debug"])
                try await clearARetainedCommand()
                #expect(capture.all.filter { $0.contains(debugLine) }.count == 1)

                #expect(try await observer.command("home/bridge/request/log_level", "info")["data"] == ["level": "info"])
                try await clearARetainedCommand()
                #expect(capture.all.filter { $0.contains(debugLine) }.count == 1)
            }
        }
    }

    @Test func warningsGoToBridgeLoggingRateLimited() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let control = LogControl(level: .info)
        let logger = control.logger(wrapping: testLogger("bridge"))
        try await withRunningBridge(broker: broker, integrations: [], logger: logger, logControl: control) { _ in
            try await Observer.watching(broker, subscribe: ["home/#"]) { observer in
                // Each failed request logs a warning: 60 at once.
                let burst = 60
                for _ in 0..<burst { try await observer.send("home/bridge/request/nope", "") }
                try await waitUntil("every request answered") {
                    observer.recorder.messages.filter { $0.topic == "home/bridge/request/nope/response" }.count == burst
                }
                try await Task.sleep(for: .milliseconds(300))
                let logged = observer.recorder.messages.filter { $0.topic == "home/bridge/logging" }
                #expect(logged.count >= 20, "the burst allowance")
                #expect(logged.count < burst, "rate-limited")
                #expect(logged.allSatisfy { !$0.retain })
                let first = try #require(JSONValue.parse(logged[0].payload))
                #expect(first["level"] == "warning")
                #expect(first["logger"] == "bridge")
                #expect(first["message"]?.stringValue?.hasPrefix("command failed") == true)
                #expect(first["message"]?.stringValue?.contains("unknown request 'nope'") == true)
                #expect(first["time"]?.stringValue?.hasSuffix("Z") == true)

                // After a pause the next warning goes out; with the `dropped` counts the messages
                // carry, every warning is accounted for.
                try await Task.sleep(for: .milliseconds(500))
                _ = try await observer.command("home/bridge/request/nope")
                try await waitUntil("every warning published or counted as dropped") {
                    let all = observer.recorder.messages.filter { $0.topic == "home/bridge/logging" }.compactMap { JSONValue.parse($0.payload) }
                    let dropped = all.compactMap { $0["dropped"]?.numberValue }.reduce(0, +)
                    return all.count + Int(dropped) == burst + 1
                }
                #expect(observer.recorder.messages.contains { $0.topic == "home/bridge/logging" && JSONValue.parse($0.payload)?["dropped"] != nil })
            }
        }
    }
}
