import BridgeTestSupport
import Foundation
import JSONDocument
import MQTTTestSupport
import PiHoleSimulator
import SimulatorSupport
import Testing

/// The Home Assistant add-on (ha-addon/): its start script run as the Supervisor runs it, against
/// a fake Supervisor on loopback, with the debug build as the bridge. scripts/lint-addon has its
/// own suite, AddOnLintTests.
@Suite struct AddOnTests {
    static let startScript = AddOn.folder.appendingPathComponent("home2mqtt-addon").path

    @Test func bridgesTheSupervisorsBrokerAndTheOptions() async throws {
        let broker = try await TestBroker.withRoles(["bridge", "watch"])
        defer { broker.stop() }
        let pihole = PiHoleSimulator()
        try await pihole.start()
        let supervisor = try await FakeSupervisor(mqtt: .ok(
            #"{"host":"127.0.0.1","port":\#(broker.port),"ssl":false,"protocol":"3.1.1","username":"bridge","password":"bridge-password","addon":"core_mosquitto"}"#))
        let data = try AddOn.scratchDirectory()
        let options = try AddOn.writeOptions(in: data, """
            {"log_level": "info", "controls": true, "base_topic": "",
             "pihole": [{"id": "main", "url": "\(pihole.baseURL)", "password": "correct horse", "insecure": false}],
             "unifi": [], "reef": {}}
            """)
        let observer = try await Observer(broker, subscribe: ["home/#"]) { $0.username = "watch"; $0.password = "watch-password" }

        // The page's listener moves to loopback (the add-on binds 0.0.0.0), through the bridge's
        // own environment overrides, which the start script hands on.
        let (addOn, loopback) = try await LoopbackPort.withHeld { port in
            let loopback = ["HOME2MQTT_BRIDGE__HEALTH__BIND_ADDRESS": "127.0.0.1", "HOME2MQTT_BRIDGE__HEALTH__PORT": "\(port)"]
            let addOn = try BridgeProcess(
                [], environment: supervisor.environment(options: options, data: data).merging(loopback, uniquingKeysWith: { $1 }),
                executable: Self.startScript)
            try await waitUntil("the add-on's bridge to listen", timeout: .seconds(30)) { LoopbackPort.accepts(port: port) }
            return (addOn, loopback)
        }
        defer { if addOn.child.isRunning { addOn.signal(SIGKILL) } }
        _ = try await observer.latest("home/pihole/main", timeout: .seconds(30)) { $0["available"] == true }
        #expect(try await observer.latest("home/bridge/state") == "online")
        #expect(supervisor.requests == ["GET /services/mqtt Bearer \(FakeSupervisor.token)"])

        // What it wrote is what the bridge accepts, and holds the Supervisor's broker and the options.
        let config = data + "/home2mqtt.yaml"
        let check = try await BridgeProcess(["check-config", "--config", config]).finish()
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("configuration ok: integrations pihole"))
        let written = try #require(JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: config))))
        #expect(written["mqtt"] == [
            "host": "127.0.0.1", "port": .number(Double(broker.port)), "client_id": "home2mqtt",
            "username": "bridge", "password": "bridge-password",
        ])
        #expect(written["bridge"] == [
            "state_dir": .string(data), "log_level": "info",
            "health": ["enabled": true, "bind_address": "0.0.0.0", "port": 9134],
            "web": ["enabled": true, "ingress": true, "controls": true],
        ], "an empty base_topic leaves the bridge's default")
        #expect(written["pihole"] == ["instances": [["id": "main", "url": .string(pihole.baseURL), "password": "correct horse", "insecure": false]]])
        #expect(written["unifi"] == nil && written["reef"] == nil)
        // The image's HEALTHCHECK, on that file.
        #expect(try await BridgeProcess(["healthcheck", "--config", config], environment: loopback).finish().status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the file holds the passwords")

        // The script became the bridge (exec): the Supervisor's SIGTERM reaches it.
        addOn.signal(SIGTERM)
        #expect(try await addOn.finish().status == 0)
        #expect(pihole.activeSessionCount == 0)
        await observer.disconnect()
        await pihole.stop()
        await supervisor.stop()
    }

    /// A broker whose service says `ssl: true` is reached over TLS, trusting the system's CAs.
    @Test func aTLSBrokerIsTrustedThroughTheSystemsAuthorities() async throws {
        let supervisor = try await FakeSupervisor(mqtt: .ok(#"{"host":"broker.example","port":8883,"ssl":true,"username":"addons","password":"p"}"#))
        let data = try AddOn.scratchDirectory()
        let options = try AddOn.writeOptions(in: data, #"{"log_level": "info", "controls": false, "# + Self.oneHole + "}")
        var environment = supervisor.environment(options: options, data: data)
        environment["ADDON_BRIDGE"] = "/bin/true"  // the configuration is what is checked here, not a connection
        #expect(try await BridgeProcess([], environment: environment, executable: Self.startScript).finish().status == 0)

        let config = data + "/home2mqtt.yaml"
        let written = try #require(JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: config))))
        #expect(written["mqtt"]?["tls"] == ["ca_file": "/etc/ssl/certs/ca-certificates.crt"])
        #expect(written["mqtt"]?["port"] == 8883)
        let check = try await BridgeProcess(["check-config", "--config", config]).finish()
        #expect(check.status == 0, "\(check.stderr)")
        await supervisor.stop()
    }

    /// An option set DOCS.md describes, as the Supervisor writes it after the form's checks.
    struct OptionSet: Sendable, CustomTestStringConvertible {
        let kind: String
        let options: String
        /// What `check-config` says of the written file.
        let integrations: String
        /// The `reef` section the script must write, where it matters.
        var reef: JSONValue?
        var testDescription: String { kind }
    }

    static let optionSets: [OptionSet] = [
        OptionSet(kind: "Pi-hole alone, optional fields left out",
                  options: #"{"log_level": "info", "controls": false, "pihole": [{"id": "main", "url": "http://127.0.0.1:9", "password": "p"}], "unifi": [], "reef": {}}"#,
                  integrations: "integrations pihole"),
        OptionSet(kind: "UniFi alone, site and rules left out",
                  options: #"{"log_level": "info", "controls": false, "pihole": [], "unifi": [{"id": "home", "url": "https://127.0.0.1:9", "api_key": "k"}], "reef": {}}"#,
                  integrations: "integrations unifi"),
        OptionSet(kind: "Reef alone, its services' URLs left out",
                  options: #"{"log_level": "info", "controls": false, "pihole": [], "unifi": [], "reef": {"url": "http://127.0.0.1:8000", "username": "keeper", "password": "p"}}"#,
                  integrations: "integrations reef",
                  reef: ["url": "http://127.0.0.1:8000", "username": "keeper", "password": "p"]),
        OptionSet(kind: "Reef with its URLs cleared on the form and the temperatures off",
                  options: #"{"log_level": "info", "controls": false, "pihole": [], "unifi": [], "reef": {"url": "http://127.0.0.1:8000", "username": "keeper", "password": "p", "temperature_url": "false", "outlets_url": ""}}"#,
                  integrations: "integrations reef",
                  reef: ["url": "http://127.0.0.1:8000", "username": "keeper", "password": "p", "temperature_url": "false"]),
    ]

    @Test(arguments: optionSets)
    func theFormsOptionSetsBecomeAConfigurationTheBridgeAccepts(set: OptionSet) async throws {
        let supervisor = try await FakeSupervisor(mqtt: .ok(#"{"host":"127.0.0.1","port":1883,"ssl":false}"#))
        let data = try AddOn.scratchDirectory()
        let options = try AddOn.writeOptions(in: data, set.options)
        var environment = supervisor.environment(options: options, data: data)
        environment["ADDON_BRIDGE"] = "/bin/true"  // the configuration is what is checked here
        let run = try await BridgeProcess([], environment: environment, executable: Self.startScript).finish()
        #expect(run.status == 0, "\(run.stderr)")
        let config = data + "/home2mqtt.yaml"
        let check = try await BridgeProcess(["check-config", "--config", config]).finish()
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("configuration ok: \(set.integrations)"), "\(check.stdout)")
        if let reef = set.reef {
            let written = try #require(JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: config))))
            #expect(written["reef"] == reef)
        }
        await supervisor.stop()
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let kind: String
        let options: String?
        var mqtt: FakeSupervisor.Answer = .ok(#"{"host":"127.0.0.1","port":1883,"ssl":false,"username":"u","password":"p"}"#)
        /// What standard error must say.
        let message: String
        var testDescription: String { kind }
    }

    static let oneHole = #""pihole": [{"id": "main", "url": "http://127.0.0.1:9", "password": "p"}], "unifi": [], "reef": {}"#
    static let refusals: [Refusal] = [
        Refusal(kind: "nothing to bridge", options: #"{"log_level": "info", "controls": false, "pihole": [], "unifi": [], "reef": {"insecure": false}}"#,
                message: "nothing to bridge: add a Pi-hole, a UniFi console or the Reef controller"),
        Refusal(kind: "an option the bridge refuses",
                options: #"{"log_level": "info", "controls": false, "pihole": [], "reef": {}, "unifi": [{"id": "home", "url": "https://127.0.0.1:9", "api_key": "k", "rules": ["Downtime"], "name_prefix": "kids"}]}"#,
                message: "configuration error: unifi.controllers[0].name_prefix: cannot be combined with rules"),
        Refusal(kind: "an option of the wrong kind", options: #"{"log_level": "loud", "controls": false, "# + oneHole + "}",
                message: "configuration error: bridge.log_level"),
        Refusal(kind: "no broker", options: #"{"log_level": "info", "controls": false, "# + oneHole + "}",
                mqtt: .error(400, "Service not enabled"), message: "no MQTT broker from the Supervisor (Service not enabled): install and start the Mosquitto broker add-on"),
        Refusal(kind: "no broker address", options: #"{"log_level": "info", "controls": false, "# + oneHole + "}",
                mqtt: .ok(#"{"ssl":false}"#), message: "no MQTT broker from the Supervisor"),
        Refusal(kind: "no options file", options: nil, message: "cannot read the options in"),
        Refusal(kind: "options not an object", options: "[]", message: "cannot read the options in"),
    ]

    @Test(arguments: refusals)
    func refusesClearlyAndRunsNothing(refusal: Refusal) async throws {
        let supervisor = try await FakeSupervisor(mqtt: refusal.mqtt)
        let data = try AddOn.scratchDirectory()
        let options = data + "/options.json"
        if let text = refusal.options { _ = try AddOn.writeOptions(in: data, text) }
        let addOn = try BridgeProcess([], environment: supervisor.environment(options: options, data: data), executable: Self.startScript)
        defer { if addOn.child.isRunning { addOn.signal(SIGKILL) } }
        let result = try await addOn.finish()
        #expect(result.status == 78)
        #expect(result.stderr.contains(refusal.message), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("home2mqtt starting"))
        await supervisor.stop()
    }
}

/// Where the add-on is, and scratch space for its data folder.
enum AddOn {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let folder = repository.appendingPathComponent("ha-addon")

    static func scratchDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("home2mqtt-addon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }

    static func writeOptions(in directory: String, _ json: String) throws -> String {
        let file = directory + "/options.json"
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}

/// The Supervisor's services API, as much as the add-on asks: `GET /services/mqtt` with the
/// add-on's token. Anything else is answered 404, a wrong token 401, as the real one does.
final class FakeSupervisor: Sendable {
    enum Answer: Sendable {
        /// `{"result":"ok","data":…}`
        case ok(String)
        /// `{"result":"error","message":…}` with this status.
        case error(Int, String)
    }

    static let token = "supervisor-token-\(UUID().uuidString.prefix(8))"
    private let server: RawTCPServer

    init(mqtt: Answer) async throws {
        server = RawTCPServer { request in
            let authorized = request.head.contains("\r\nAuthorization: Bearer \(Self.token)")
            switch (request.line.hasPrefix("GET /services/mqtt "), authorized) {
            case (_, false): return Self.answer(.error(401, "Unauthorized"))
            case (true, true): return Self.answer(mqtt)
            case (false, true): return Self.answer(.error(404, "Not found"))
            }
        }
        try await server.start()
    }

    /// The start script's environment: this Supervisor, the token, and the add-on's files.
    func environment(options: String, data: String) -> [String: String] {
        [
            "ADDON_SUPERVISOR_URL": server.baseURL, "SUPERVISOR_TOKEN": Self.token,
            "ADDON_OPTIONS_FILE": options, "ADDON_DATA_DIR": data, "ADDON_BRIDGE": BridgeProcess.executable,
        ]
    }

    /// Each request as `METHOD /path Bearer TOKEN`.
    var requests: [String] {
        server.requests.map { request in
            let path = request.line.split(separator: " ").prefix(2).joined(separator: " ")
            let token = request.head.split(separator: "\r\n").first { $0.hasPrefix("Authorization: ") }?.dropFirst("Authorization: ".count)
            return "\(path) \(token ?? "-")"
        }
    }

    func stop() async {
        await server.stop()
    }

    private static func answer(_ answer: Answer) -> RawTCPServer.Action {
        let (status, body) = switch answer {
        case .ok(let data): (200, #"{"result":"ok","data":\#(data)}"#)
        case .error(let status, let message): (status, #"{"result":"error","message":"\#(message)"}"#)
        }
        let head = "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return .send(Array((head + body).utf8), thenClose: true)
    }
}
