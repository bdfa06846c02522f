import BridgeTestSupport
import Foundation
import Testing

/// Issue 11, bad configuration: one case of every kind of mistake, each run through the real
/// executable (`check-config`, then `run`), as a user would meet it. Each must stop with exit
/// status 78 and a message that names the key. docs/reliability.md shows the same table.
@Suite struct ConfigMistakeTests {
    /// `@DIR@` in a case's YAML is a scratch directory holding `not-a-certificate.pem` (a key-like
    /// text), `empty` (an empty file) and `sub/` (a directory).
    struct Mistake: Sendable, CustomTestStringConvertible {
        let kind: String
        let yaml: String
        /// What the message starts with after `configuration error: `: the key, as a rule.
        let key: String
        var testDescription: String { "\(kind): \(key)" }
    }

    static let pihole = "pihole:\n  instances:\n    - id: main\n      url: http://x\n"
    static let unifi = "unifi:\n  controllers:\n    - id: home\n      url: https://x\n      api_key: k\n"
    static let reef = "reef:\n  url: http://x:8000\n  username: u\n"

    static let mistakes: [Mistake] = [
        Mistake(kind: "type", yaml: "mqtt:\n  port: abc\n", key: "mqtt.port"),
        Mistake(kind: "type", yaml: "bridge:\n  discovery: maybe\n", key: "bridge.discovery"),
        Mistake(kind: "type", yaml: "pihole:\n  poll_interval: [1]\n", key: "pihole.poll_interval"),
        Mistake(kind: "type", yaml: "pihole:\n  instances: {id: main}\n", key: "pihole.instances"),
        Mistake(kind: "type", yaml: "mqtt: 5\n", key: "mqtt"),
        Mistake(kind: "range", yaml: "mqtt:\n  port: 70000\n", key: "mqtt.port"),
        Mistake(kind: "range", yaml: "mqtt:\n  keepalive: 2\n", key: "mqtt.keepalive"),
        Mistake(kind: "range", yaml: "bridge:\n  command_timeout: 1000\n", key: "bridge.command_timeout"),
        Mistake(kind: "range", yaml: "mqtt:\n  session_expiry: -1\n", key: "mqtt.session_expiry"),
        Mistake(kind: "range", yaml: reef + "  password: p\n  outlets_interval: 0\n", key: "reef.outlets_interval"),
        Mistake(kind: "range", yaml: "pihole:\n  pause_presets: [10, -1]\n", key: "pihole.pause_presets[1]"),
        Mistake(kind: "choice", yaml: "bridge:\n  log_level: loud\n", key: "bridge.log_level"),
        Mistake(kind: "choice", yaml: "mqtt:\n  protocol: \"4\"\n", key: "mqtt.protocol"),
        Mistake(kind: "unknown key", yaml: "mqtt:\n  hots: x\n", key: "mqtt.hots"),
        Mistake(kind: "unknown key", yaml: "nonsense: 1\n", key: "nonsense"),
        Mistake(kind: "unknown key", yaml: reef + "  pasword: p\n", key: "reef.pasword"),
        Mistake(kind: "missing key", yaml: "unifi:\n  controllers:\n    - id: home\n      url: https://x\n", key: "unifi.controllers[0].api_key"),
        Mistake(kind: "missing key", yaml: reef, key: "reef.password"),
        Mistake(kind: "missing key", yaml: "mqtt:\n  password: p\n", key: "mqtt.password"),
        Mistake(kind: "missing secrets file", yaml: "mqtt:\n  username: u\n  password_file: @DIR@/nothing\n", key: "mqtt.password_file"),
        Mistake(kind: "missing secrets file", yaml: pihole + "      password_file: @DIR@/nothing\n", key: "pihole.instances[0].password_file"),
        Mistake(kind: "missing secrets file", yaml: "unifi:\n  controllers:\n    - id: home\n      url: https://x\n      api_key_file: @DIR@/nothing\n",
                key: "unifi.controllers[0].api_key_file"),
        Mistake(kind: "missing secrets file", yaml: reef + "  password_file: @DIR@/nothing\n", key: "reef.password_file"),
        Mistake(kind: "secret given twice", yaml: reef + "  password: p\n  password_file: @DIR@/empty\n", key: "reef.password_file"),
        Mistake(kind: "unreadable CA", yaml: unifi + "      ca_file: @DIR@/nothing\n", key: "unifi.controllers[0].ca_file"),
        Mistake(kind: "unreadable CA", yaml: unifi + "      ca_file: @DIR@/sub\n", key: "unifi.controllers[0].ca_file"),
        Mistake(kind: "unreadable CA", yaml: "mqtt:\n  tls:\n    ca_file: @DIR@/nothing\n", key: "mqtt.tls.ca_file"),
        Mistake(kind: "unreadable CA", yaml: "mqtt:\n  tls:\n    ca_file: @DIR@/not-a-certificate.pem\n", key: "mqtt.tls.ca_file"),
        Mistake(kind: "unreadable CA", yaml: "reef:\n  url: https://x:8000\n  username: u\n  password: p\n  ca_file: @DIR@/empty\n", key: "reef.ca_file"),
        Mistake(kind: "unreadable CA", yaml: "pihole:\n  instances:\n    - id: main\n      url: https://x\n      password: p\n      ca_file: @DIR@/not-a-certificate.pem\n",
                key: "pihole.instances[0].ca_file"),
        Mistake(kind: "TLS settings", yaml: "mqtt:\n  tls:\n    ca_file: @DIR@/nothing\n    cert_file: @DIR@/nothing\n", key: "mqtt.tls.cert_file"),
        Mistake(kind: "TLS settings", yaml: unifi + "      tls_fingerprint: zz\n", key: "unifi.controllers[0].tls_fingerprint"),
        Mistake(kind: "TLS settings", yaml: "pihole:\n  instances:\n    - id: main\n      url: https://x\n      password: p\n      tls_fingerprint: AB:CD\n",
                key: "pihole.instances[0].tls_fingerprint"),
        Mistake(kind: "TLS settings", yaml: pihole + "      password: p\n      insecure: true\n", key: "pihole.instances[0].insecure"),
        Mistake(kind: "TLS settings", yaml: "pihole:\n  instances:\n    - id: main\n      url: https://x\n      password: p\n      insecure: true\n      verify_certificate: false\n",
                key: "pihole.instances[0].verify_certificate"),
        Mistake(kind: "bad URL", yaml: "pihole:\n  instances:\n    - id: main\n      url: ftp://x\n      password: p\n", key: "pihole.instances[0].url"),
        Mistake(kind: "bad URL", yaml: "unifi:\n  controllers:\n    - id: home\n      url: https://\n      api_key: k\n", key: "unifi.controllers[0].url"),
        Mistake(kind: "bad URL", yaml: "reef:\n  url: \"not a url\"\n  username: u\n  password: p\n", key: "reef.url"),
        Mistake(kind: "duplicate id", yaml: pihole + "      password: p\n    - id: main\n      url: http://y\n      password: p\n", key: "pihole.instances[1].id"),
        Mistake(kind: "duplicate id", yaml: unifi + "    - id: home\n      url: https://y\n      api_key: k\n", key: "unifi.controllers[1].id"),
        Mistake(kind: "bad id", yaml: "pihole:\n  instances:\n    - id: Main\n      url: http://x\n      password: p\n", key: "pihole.instances[0].id"),
        Mistake(kind: "bad topic", yaml: "bridge:\n  base_topic: home/#\n", key: "bridge.base_topic"),
        Mistake(kind: "bad topic", yaml: "mqtt:\n  shared_subscription_group: a/b\n", key: "mqtt.shared_subscription_group"),
        Mistake(kind: "bad path", yaml: "bridge:\n  state_dir: relative/path\n", key: "bridge.state_dir"),
        Mistake(kind: "empty list", yaml: unifi + "      rules: []\n", key: "unifi.controllers[0].rules"),
        Mistake(kind: "not YAML", yaml: "mqtt: [\n", key: "the file is not valid YAML: line 2, column 1"),
    ]

    @Test(arguments: mistakes)
    func stopsTheStartNamingTheKey(mistake: Mistake) async throws {
        let directory = try Self.scratchDirectory()
        let file = try BridgeProcess.writeConfig(mistake.yaml.replacingOccurrences(of: "@DIR@", with: directory))
        for command in ["check-config", "run"] {
            let result = try await BridgeProcess([command, "--config", file]).finish()
            #expect(result.status == 78, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("configuration error: \(mistake.key)"), "\(command): \(result.stderr)")
        }
    }

    private static func scratchDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-mistakes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8)
            .write(to: directory.appendingPathComponent("not-a-certificate.pem"))
        try Data().write(to: directory.appendingPathComponent("empty"))
        return directory.path
    }
}
