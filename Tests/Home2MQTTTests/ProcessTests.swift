import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

@Suite struct ProcessTests {
    private var exampleConfig: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config.example.yaml").standardized.path
    }

    @Test func checkConfigAcceptsTheExample() async throws {
        let result = try await BridgeProcess(["check-config", "--config", exampleConfig]).finish()
        #expect(result.status == 0)
        #expect(result.stdout.contains("configuration ok: integrations pihole"))
        #expect(!result.stdout.contains("change-me"))
        #expect(result.stdout.contains("hints:\n- pihole: use an app password"))
    }

    @Test(arguments: [
        ("mqtt:\n  port: abc\n", "mqtt.port"),
        ("mqtt:\n  hots: x\n", "mqtt.hots"),
        ("pihole:\n  instances:\n    - id: main\n      url: ftp://x\n      password: p\n", "pihole.instances[0].url"),
        ("pihole:\n  instances:\n    - id: Main\n      url: http://x\n      password: p\n", "pihole.instances[0].id"),
        ("nonsense: 1\n", "nonsense"),
        ("pihole:\n  instances:\n    - id: main\n      url: https://x\n      password: p\n      tls_fingerprint: AB:CD\n", "pihole.instances[0].tls_fingerprint"),
        ("pihole:\n  instances:\n    - id: main\n      url: http://x\n      password: p\n      insecure: true\n", "pihole.instances[0].insecure"),
        ("pihole:\n  instances:\n    - id: main\n      url: https://x\n      password: p\n      insecure: true\n      verify_certificate: false\n",
         "pihole.instances[0].verify_certificate"),
        ("unifi:\n  controllers:\n    - id: home\n      url: https://x\n", "unifi.controllers[0].api_key"),
        ("unifi:\n  controllers:\n    - id: home\n      url: https://x\n      api_key: k\n      rules: []\n", "unifi.controllers[0].rules"),
        ("unifi:\n  controllers:\n    - id: home\n      url: https://x\n      api_key: k\n      ca_file: /nonexistent.pem\n",
         "unifi.controllers[0].ca_file"),
        ("bridge:\n  state_dir: relative/path\n", "bridge.state_dir"),
    ])
    func badConfigsStopTheStartNamingTheKey(yaml: String, key: String) async throws {
        let file = try BridgeProcess.writeConfig(yaml)
        for command in ["check-config", "run"] {
            let result = try await BridgeProcess([command, "--config", file]).finish()
            #expect(result.status == 78)
            #expect(result.stderr.contains("configuration error: \(key)"), "\(result.stderr)")
        }
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
}
