import Foundation
import JSONDocument
import MQTTTestSupport

/// A real Home Assistant, from the virtual environment scripts/install-home-assistant makes, in a
/// configuration folder of its own on a loopback port, with the MQTT integration on the test
/// broker. Driven as a user's browser would: onboarding, the MQTT config flow, then the websocket
/// API (through `home_assistant_client.py`, run with the environment's Python).
final class HomeAssistant: Sendable {
    /// The release scripts/install-home-assistant pins.
    static let version = "2025.4.4"

    static var virtualEnvironment: String {
        ProcessInfo.processInfo.environment["HA_VENV_DIR"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/home2mqtt/ha-\(version)").path
    }

    /// The script writes this last; without it the environment is missing or half made. The
    /// test fails then, never skips: CI installs it, and a skip there would hide that it did not.
    static func checkInstalled() throws {
        let venv = virtualEnvironment
        guard FileManager.default.fileExists(atPath: "\(venv)/.home2mqtt-ha-\(version)"),
              FileManager.default.isExecutableFile(atPath: "\(venv)/bin/hass") else {
            throw TestSupportError(
                "Home Assistant \(version) is not installed in \(venv): run scripts/install-home-assistant first")
        }
    }

    let directory: URL
    let port: Int
    let process: ChildProcess
    var url: String { "http://127.0.0.1:\(port)" }
    private var tokenFile: String { directory.appendingPathComponent("token").path }
    private static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("home_assistant_client.py").path

    /// Starts Home Assistant on `port` and returns once it answers HTTP; `onboard(brokerPort:)` next.
    init(port: Int) async throws {
        try Self.checkInstalled()
        self.port = port
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("home-assistant-\(UUID().uuidString)")
        let config = directory.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // A fixed place and time zone, so that nothing is looked up; only loopback is listened on.
        let yaml = """
            homeassistant:
              name: home2mqtt test
              time_zone: UTC
              unit_system: metric
              latitude: 0
              longitude: 0
              elevation: 0
              country: NL
            http:
              server_host: 127.0.0.1
              server_port: \(port)
            logger:
              default: warning
            """
        try yaml.write(to: config.appendingPathComponent("configuration.yaml"), atomically: true, encoding: .utf8)
        // Its network settings, as its user interface stores them: the loopback adapter alone.
        // Otherwise the mDNS resolver of its HTTP client joins 224.0.0.251 on every interface;
        // so it binds port 5353 but joins no group and sends nothing.
        let storage = config.appendingPathComponent(".storage")
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        try #"{"version": 1, "minor_version": 1, "key": "core.network", "data": {"configured_adapters": ["lo"]}}"#
            .write(to: storage.appendingPathComponent("core.network"), atomically: true, encoding: .utf8)
        // --skip-pip: everything it needs was installed beforehand; nothing is fetched at test time.
        process = try ChildProcess(
            path: "\(Self.virtualEnvironment)/bin/hass",
            arguments: ["--config", config.path, "--skip-pip", "--log-file", directory.appendingPathComponent("home-assistant.log").path],
            logPath: directory.appendingPathComponent("stdout.log").path)
        do {
            try await waitUntil("Home Assistant to answer on port \(port)", timeout: .seconds(180), pollInterval: .milliseconds(200)) {
                guard process.isRunning else { throw TestSupportError("Home Assistant exited:\n\(log().suffix(3000))") }
                return LoopbackPort.accepts(port: port)
            }
        } catch {
            // Nobody else holds it to stop it.
            process.terminate(signal: SIGKILL)
            throw error
        }
    }

    /// Creates the owner (and with it the token the websocket calls use), then adds the MQTT
    /// integration on the test broker. Home Assistant 2025 configures MQTT only through a config
    /// entry; the flow makes it as the user interface would, and checks the broker answers.
    func onboard(brokerPort: Int) async throws {
        _ = try await run(["onboard"])
        _ = try await run(["add-mqtt", String(brokerPort)])
    }

    /// One websocket command (`type` and its fields) and its result.
    func websocket(_ message: JSONValue) async throws -> JSONValue {
        try await run(["ws", message.encodedString()])
    }

    /// The entity registry's entries of the MQTT integration, by unique id.
    func mqttEntities() async throws -> [String: JSONValue] {
        let entries = try await websocket(["type": "config/entity_registry/list"]).arrayValue ?? []
        var byUniqueID: [String: JSONValue] = [:]
        for entry in entries where entry["platform"] == "mqtt" {
            if let uniqueID = entry["unique_id"]?.stringValue { byUniqueID[uniqueID] = entry }
        }
        return byUniqueID
    }

    /// Warnings and errors in Home Assistant's system log from the MQTT integration or from
    /// template rendering (what issue 28 saw it refuse), last logged at or after `since`.
    func mqttProblems(since: Date = .distantPast) async throws -> [String] {
        try await problems(since: since, levels: ["WARNING", "ERROR", "CRITICAL"]) {
            $0.hasPrefix("homeassistant.components.mqtt") || $0.hasPrefix("homeassistant.helpers.template")
        }
    }

    /// Errors setting up an integration: a requirement scripts/install-home-assistant did not
    /// install (Home Assistant runs with --skip-pip) shows here.
    func setupProblems() async throws -> [String] {
        try await problems(since: .distantPast, levels: ["ERROR", "CRITICAL"]) {
            ["homeassistant.setup", "homeassistant.loader", "homeassistant.requirements", "homeassistant.config_entries"].contains($0)
        }
    }

    private func problems(since: Date, levels: Set<String>, from logger: (String) -> Bool) async throws -> [String] {
        let entries = try await websocket(["type": "system_log/list"]).arrayValue ?? []
        return entries.filter { entry in
            logger(entry["name"]?.stringValue ?? "") && levels.contains(entry["level"]?.stringValue ?? "")
                && (entry["timestamp"]?.numberValue ?? 0) >= since.timeIntervalSince1970
        }.map { entry in
            let messages = entry["message"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return "\(entry["level"]?.stringValue ?? "") [\(entry["name"]?.stringValue ?? "")] \(messages.joined(separator: " | "))"
        }
    }

    /// Home Assistant's own log file, for failure messages.
    func log() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("home-assistant.log"), encoding: .utf8)) ?? ""
    }

    /// Stops it with SIGTERM (it saves its registries then), SIGKILL after 30 s.
    func stop() async {
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        do {
            try await waitUntil("Home Assistant to stop", timeout: .seconds(30), pollInterval: .milliseconds(100)) { !process.isRunning }
        } catch {
            process.terminate(signal: SIGKILL)
        }
    }

    private func run(_ arguments: [String]) async throws -> JSONValue {
        let name = UUID().uuidString
        let out = directory.appendingPathComponent("client-\(name).out").path
        let err = directory.appendingPathComponent("client-\(name).err").path
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let child = try ChildProcess(
            path: "\(Self.virtualEnvironment)/bin/python",
            arguments: [Self.client, "--url", url, "--token-file", tokenFile] + arguments, logPath: out, errorPath: err)
        let status = try await child.exitCode()
        guard status == 0 else {
            let message = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            throw TestSupportError("home_assistant_client.py \(arguments.first ?? "") exited \(status): \(message)")
        }
        let output = FileManager.default.contents(atPath: out) ?? Data()
        guard let value = JSONValue.parse(output) else {
            throw TestSupportError("home_assistant_client.py \(arguments.first ?? ""): not JSON: \(String(decoding: output, as: UTF8.self))")
        }
        return value
    }
}
