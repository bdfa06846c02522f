import BridgeCore
import Foundation
import Logging
import MQTT
import MQTTTestSupport
import ServiceLifecycle

/// Runs a real `Bridge` in-process against a test broker for the length of `body`, then shuts
/// it down gracefully (as SIGTERM would) and waits for it to finish. `body` starts once the
/// bridge says `online`, which it does after its command subscriptions are in place.
/// `configureObserver` sets up the client that watches for that (credentials on a broker with roles).
/// `logControl`: the one `logger` was made through (`LogControl.logger(wrapping:)`), for tests of
/// `bridge/request/log_level` and `bridge/logging`. `clock`: the bridge's, the integrations' too
/// (a `ManualClock` for a test on virtual time). `metrics`: the integrations' (their
/// `IntegrationEnvironment`'s), as in `home2mqtt run`: `bridge/health` reads their upstreams'
/// from it. `waitingForOnline: false`: `body` starts at once, for a broker that is away.
/// `bridgeObserver`: told what the bridge does, for a test of a client in its process, which
/// sends with the bridge `body` gets (`Bridge.send`).
public func withRunningBridge<T: Sendable>(
    broker: TestBroker,
    yaml: String = "",
    integrations: [any Integration],
    metrics: BridgeMetrics = BridgeMetrics(),
    logger: Logger = testLogger("bridge"),
    logControl: LogControl? = nil,
    clock: any BridgeClock = .system,
    bridgeObserver: (any BridgeObserver)? = nil,
    observer configureObserver: (inout MQTTConfiguration) -> Void = { _ in },
    waitingForOnline: Bool = true,
    _ body: (Bridge) async throws -> T
) async throws -> T {
    let bridge = try Bridge(
        configuration: try testConfiguration(broker: broker, yaml: yaml),
        integrations: integrations, metrics: metrics, logger: logger, logControl: logControl, observer: bridgeObserver, clock: clock
    )
    let group = ServiceGroup(services: [bridge], logger: testLogger("service-group"))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        do {
            if waitingForOnline {
                let watcher = try await Observer(broker, subscribe: [BridgeTopics(base: bridgeBase(yaml)).state], configure: configureObserver)
                _ = try await watcher.latest(BridgeTopics(base: bridgeBase(yaml)).state) { $0 == .string(BridgeTopics.online) }
                await watcher.disconnect()
            }
            let result = try await body(bridge)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            throw error
        }
    }
}

private func bridgeBase(_ yaml: String) throws -> String {
    try LoadedConfiguration(tree: ConfigTree.parse(yaml: yaml)).bridge.baseTopic
}

/// The YAML with the broker's address laid over it, and a client id and a state directory of
/// its own unless the YAML names them (a test of a restart names the same twice).
public func testConfiguration(broker: TestBroker, yaml: String) throws -> LoadedConfiguration {
    var overlay = [
        "HOME2MQTT_MQTT__HOST": broker.host,
        "HOME2MQTT_MQTT__PORT": String(broker.port),
    ]
    if !yaml.contains("client_id:") { overlay["HOME2MQTT_MQTT__CLIENT_ID"] = uniqueClientID("bridge") }
    if !yaml.contains("state_dir:") { overlay["HOME2MQTT_BRIDGE__STATE_DIR"] = temporaryStateDirectory() }
    let tree = try ConfigOverlays.applyingEnvironment(overlay, to: ConfigTree.parse(yaml: yaml))
    return try LoadedConfiguration(tree: tree)
}

/// A new, empty directory for a bridge's persisted state.
public func temporaryStateDirectory() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("home2mqtt-state-\(UUID().uuidString)").path
}

public func uniqueClientID(_ prefix: String) -> String {
    "\(prefix)-\(UUID().uuidString.prefix(8))"
}

public func testLogger(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = ProcessInfo.processInfo.environment["BRIDGE_TEST_LOG"] != nil ? .debug : .critical
    return logger
}

/// A connected client that records everything on `filters`, for watching what the bridge does.
public struct Observer: Sendable {
    public let client: MQTTClient
    public let recorder: MessageRecorder
    static let replies = BridgeTopics(base: "home").replies

    public init(_ broker: TestBroker, subscribe filters: [String] = ["#"], configure: (inout MQTTConfiguration) -> Void = { _ in }) async throws {
        try await self.init(host: broker.host, port: broker.port, subscribe: filters, configure: configure)
    }

    /// Watches a broker this test did not start (the one `home2mqtt-demo` starts, for one).
    public init(host: String, port: Int, subscribe filters: [String] = ["#"], configure: (inout MQTTConfiguration) -> Void = { _ in }) async throws {
        var configuration = MQTTConfiguration(clientID: uniqueClientID("observer"), host: host, port: port)
        configure(&configuration)
        client = try MQTTClient(configuration: configuration, logger: testLogger("observer"))
        recorder = MessageRecorder(client.messages)
        try await client.connect(timeout: .seconds(10))
        // Answers to `command()`; overlapping subscriptions would deliver each answer twice.
        let coversReplies = filters.contains { TopicFilter.matches($0, topic: Self.replies + "/x") }
        for filter in filters + (coversReplies ? [] : [Self.replies + "/#"]) {
            try await client.subscribe(filter, qos: .atLeastOnce)
        }
    }

    public func send(_ topic: String, _ payload: String, retain: Bool = false, properties: MQTTProperties = .init()) async throws {
        try await client.publish(topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: retain, properties: properties)
    }

    /// Sends a command with an MQTT 5 response topic of its own and returns the parsed answer.
    public func command(_ topic: String, _ payload: String = "", timeout: Duration = .seconds(20)) async throws -> JSONValue {
        try await command(topic, bytes: Array(payload.utf8), timeout: timeout)
    }

    /// As above, with any bytes as the payload (invalid UTF-8 included).
    public func command(_ topic: String, bytes: [UInt8], timeout: Duration = .seconds(20)) async throws -> JSONValue {
        let replyTopic = "\(Self.replies)/\(UUID().uuidString)"
        let properties = MQTTProperties(responseTopic: replyTopic, correlationData: Array(replyTopic.utf8))
        try await client.publish(topic, payload: bytes, qos: .atLeastOnce, properties: properties)
        let response = try await recorder.first(timeout: timeout) { $0.topic == replyTopic }
        return JSONValue.parse(response.payload) ?? .null
    }

    /// The latest message on `topic` once it satisfies `predicate` (retained state settles).
    /// `live`: only messages published since this observer subscribed, not the retained copy of
    /// an older one that the broker sends at the subscription (marked by the retain flag, however
    /// late it lands in the log). Subscribed before a bridge starts, that is this run's state
    /// alone, not what a run before it left on the same broker.
    public func latest(
        _ topic: String, live: Bool = false, timeout: Duration = .seconds(20), where predicate: @escaping (JSONValue) -> Bool = { _ in true }
    ) async throws -> JSONValue {
        var found: JSONValue?
        try await waitUntil("\(live ? "a live message on " : "")\(topic) to match", timeout: timeout) {
            guard let last = recorder.messages.last(where: { $0.topic == topic && !(live && $0.retain) }) else { return false }
            let value = JSONValue.parse(last.payload) ?? .string(last.payloadString ?? "")
            found = value
            return predicate(value)
        }
        return found!
    }

    public func disconnect() async {
        await client.disconnect()
    }

    /// Connects an observer of `filters` for the length of `body`, and disconnects it after,
    /// also when `body` throws.
    public static func watching<T: Sendable>(
        _ broker: TestBroker, subscribe filters: [String], configure: (inout MQTTConfiguration) -> Void = { _ in },
        _ body: (Observer) async throws -> T
    ) async throws -> T {
        let observer = try await Observer(broker, subscribe: filters, configure: configure)
        do {
            let result = try await body(observer)
            await observer.disconnect()
            return result
        } catch {
            await observer.disconnect()
            throw error
        }
    }
}
