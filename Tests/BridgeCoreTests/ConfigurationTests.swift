import Foundation
import Testing

@testable import BridgeCore

@Suite struct ConfigurationTests {
    private func load(_ yaml: String, environment: [String: String] = [:]) throws(ConfigError) -> LoadedConfiguration {
        var tree = try ConfigTree.parse(yaml: yaml)
        tree = try ConfigOverlays.applyingEnvironment(environment, to: tree)
        tree = try ConfigOverlays.resolvingSecretFiles(in: tree)
        return try LoadedConfiguration(tree: tree)
    }

    private func refusal(_ yaml: String, environment: [String: String] = [:]) -> ConfigError? {
        do {
            _ = try load(yaml, environment: environment)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsNeedNoFile() throws {
        let configuration = try load("")
        #expect(configuration.bridge.baseTopic == "home")
        #expect(configuration.bridge.mqtt.host == "127.0.0.1")
        #expect(configuration.bridge.mqtt.port == 1883)
        #expect(configuration.bridge.mqtt.protocolVersion == .v5)
        #expect(configuration.bridge.mqtt.will?.topic == "home/bridge/state")
        #expect(configuration.bridge.mqtt.will?.payload == Array("offline".utf8))
        #expect(configuration.bridge.mqtt.will?.retain == true)
    }

    @Test func theExampleFileIsAccepted() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../home2mqtt.example.yaml").standardized.path
        let configuration = try load(String(contentsOfFile: example, encoding: .utf8))
        #expect(configuration.bridge.mqtt.username == "bridge")
        #expect(configuration.tree["pihole"]?["instances"] != nil)
    }

    @Test func badValuesNameTheirKey() {
        #expect(refusal("mqtt:\n  port: abc\n")?.key == "mqtt.port")
        #expect(refusal("mqtt:\n  port: 70000\n")?.key == "mqtt.port")
        #expect(refusal("mqtt:\n  hots: x\n")?.key == "mqtt.hots")
        #expect(refusal("bridge:\n  base_topic: home/#\n")?.key == "bridge.base_topic")
        #expect(refusal("bridge:\n  log_format: xml\n")?.key == "bridge.log_format")
        #expect(refusal("mqtt:\n  password: x\n")?.key == "mqtt.password")
        #expect(refusal("mqtt: [1, 2]\n")?.key == "mqtt")
        #expect(refusal("mqtt:\n  tls:\n    ca_file: /nonexistent/ca.crt\n")?.key == "mqtt.tls.ca_file")
        #expect(refusal("mqtt: {host: a\n")?.key == "")
    }

    /// Found by the config fuzz target (issue 28): 2,847 `[` overflowed the stack under
    /// AddressSanitizer, 20,000 without it. Each level is a call, so depth is bounded.
    @Test func nestingDeeperThanTheLimitIsAnErrorNotAStackOverflow() throws {
        let nested = { (depth: Int) in "bridge:\n  x: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n" }
        #expect(throws: Never.self) { try ConfigTree.parse(yaml: nested(ConfigTree.maximumDepth - 2)) }
        let refused = try #require(refusal(nested(ConfigTree.maximumDepth - 1)))
        #expect(refused.description.contains("nested deeper than \(ConfigTree.maximumDepth) levels"))
        #expect(refusal("a: " + String(repeating: "[", count: 100_000))?.description.contains("nested deeper") == true)
        #expect(refusal(String(repeating: "{a: ", count: 100_000))?.description.contains("nested deeper") == true)
    }

    @Test func environmentOverridesAnyKey() throws {
        let configuration = try load("mqtt:\n  host: a\n", environment: [
            "HOME2MQTT_MQTT__HOST": "broker", "HOME2MQTT_MQTT__PORT": "8883", "HOME2MQTT_BRIDGE__BASE_TOPIC": "house",
            "UNRELATED": "x",
        ])
        #expect(configuration.bridge.mqtt.host == "broker")
        #expect(configuration.bridge.mqtt.port == 8883)
        #expect(configuration.bridge.baseTopic == "house")
        #expect(refusal("", environment: ["HOME2MQTT_MQTT__PORT": "x"])?.key == "mqtt.port")
    }

    @Test func environmentReachesIntoLists() throws {
        let tree = try ConfigOverlays.applyingEnvironment(
            ["HOME2MQTT_PIHOLE__INSTANCES__0__PASSWORD": "s"],
            to: ConfigTree.parse(yaml: "pihole:\n  instances:\n    - id: main\n")
        )
        let instance = try ConfigSection(tree).section("pihole").sections("instances")[0]
        #expect(try instance.string("password") == "s")
    }

    /// A script's own `HOME2MQTT_HA_VENV` once stopped the bridge ("ha_venv: is not a known key"):
    /// only names with a section (`__`) are overrides; a malformed one of those is still refused.
    @Test func theEnvironmentsOtherVariablesWithThePrefixAreLeftAlone() throws {
        let configuration = try load("", environment: ["HOME2MQTT_HA_VENV": "/opt/ha", "HOME2MQTT_VERSION": "1", "HOME2MQTT_MQTT__PORT": "1884"])
        #expect(configuration.bridge.mqtt.port == 1884)
        #expect(refusal("", environment: ["HOME2MQTT_MQTT__": "x"])?.key == "HOME2MQTT_MQTT__")
        #expect(refusal("", environment: ["HOME2MQTT_MQTT__NO_SUCH_KEY": "x"])?.key == "mqtt.no_such_key")
    }

    @Test func secretsComeFromFiles() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secret-\(UUID().uuidString)")
        try "hunter2\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let configuration = try load("mqtt:\n  username: bridge\n  password_file: \(file.path)\n")
        #expect(configuration.bridge.mqtt.password == "hunter2")
        #expect(refusal("mqtt:\n  username: b\n  password_file: /nonexistent/secret\n")?.key == "mqtt.password_file")
        #expect(refusal("mqtt:\n  username: b\n  password: x\n  password_file: \(file.path)\n")?.key == "mqtt.password_file")
    }

    @Test func redactionHidesEverySecret() throws {
        let configuration = try load("mqtt:\n  username: bridge\n  password: hunter2\npihole:\n  instances:\n    - password: s3cret\n")
        let text = configuration.redacted.encodedString()
        #expect(!text.contains("hunter2"))
        #expect(!text.contains("s3cret"))
        #expect(text.contains("bridge"))
        #expect(configuration.redacted["mqtt"]?["password"] == "**redacted**")
    }
}
