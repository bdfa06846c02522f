import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

@Suite struct ProcessTests {
    private var exampleConfig: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../home2mqtt.example.yaml").standardized.path
    }

    @Test func checkConfigAcceptsTheExample() async throws {
        let result = try await BridgeProcess(["check-config", "--config", exampleConfig]).finish()
        #expect(result.status == 0)
        #expect(result.stdout.contains("configuration ok: integrations pihole"))
        #expect(!result.stdout.contains("change-me"))
        #expect(result.stdout.contains("hints:\n- pihole: use an app password"))
    }

    @Test func environmentOverridesReachTheProcess() async throws {
        let result = try await BridgeProcess(["check-config"], environment: ["HOME2MQTT_MQTT__PORT": "0"]).finish()
        #expect(result.status == 78)
        #expect(result.stderr.contains("mqtt.port"))
    }

    @Test func sigtermPublishesOfflineAndExitsZero() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let observer = try await Observer(broker, subscribe: ["home/bridge/state"])
        let bridge = try BridgeProcess(["run"], environment: ["HOME2MQTT_MQTT__PORT": String(broker.port)])
        _ = try await observer.latest("home/bridge/state", timeout: .seconds(20)) { $0 == "online" }
        let signalled = ContinuousClock.now
        bridge.signal(SIGTERM)
        let result = try await bridge.finish(timeout: .seconds(10))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(ContinuousClock.now - signalled < .seconds(5))
        _ = try await observer.latest("home/bridge/state") { $0 == "offline" }
        await observer.disconnect()
    }

    /// A bridge started before its broker (it waits, retrying) still stops at SIGTERM.
    @Test func sigtermWhileWaitingForTheBrokerExitsZero() async throws {
        try await LoopbackPort.withRefusing { nobody in
            let bridge = try BridgeProcess(["run"], environment: ["HOME2MQTT_MQTT__PORT": String(nobody), "HOME2MQTT_BRIDGE__LOG_LEVEL": "debug"])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await waitUntil("a connect attempt failed", timeout: .seconds(20)) { bridge.output.contains("MQTT connect attempt failed") }
            let signalled = ContinuousClock.now
            bridge.signal(SIGTERM)
            let result = try await bridge.finish(timeout: .seconds(20))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(ContinuousClock.now - signalled < .seconds(5))
        }
    }

    @Test func theLastWillSaysOfflineWhenTheProcessIsKilled() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let observer = try await Observer(broker, subscribe: ["home/bridge/state"])
        let bridge = try BridgeProcess(["run", "--log-format", "json"], environment: ["HOME2MQTT_MQTT__PORT": String(broker.port)])
        _ = try await observer.latest("home/bridge/state", timeout: .seconds(20)) { $0 == "online" }
        bridge.signal(SIGKILL)
        _ = try await bridge.finish()
        _ = try await observer.latest("home/bridge/state") { $0 == "offline" }
        await observer.disconnect()
    }

    /// The main thread waits while the bridge runs (`ProcessEntry`). An async main gives it to
    /// `dispatch_main()`, which ends it with `pthread_exit` and parks what is left of it in
    /// `rt_sigsuspend`; the unwinding that takes leaves about 2 MiB of unwind tables resident
    /// (docs/benchmarks.md, "Memory").
    @Test func theMainThreadWaitsRatherThanEnding() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let observer = try await Observer(broker, subscribe: ["home/bridge/state"])
        let bridge = try BridgeProcess(["run"], environment: ["HOME2MQTT_MQTT__PORT": String(broker.port)])
        defer { bridge.child.terminate(signal: SIGKILL) }
        _ = try await observer.latest("home/bridge/state", timeout: .seconds(20)) { $0 == "online" }
        let pid = bridge.child.pid
        // The kernel function the thread sleeps in.
        let waitingIn = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/wchan", encoding: .utf8)
        #expect(!waitingIn.contains("sigsuspend"), "the main thread waits in \(waitingIn)")
        await observer.disconnect()
    }
}
