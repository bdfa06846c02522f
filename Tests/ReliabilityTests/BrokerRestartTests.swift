import BridgeCore
import BridgeTestSupport
import Foundation
import MQTT
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// Issue 11, broker restarts: mosquitto with persistence on, restarted again and again under
/// commands. The bridge's session (clean start off, `mqtt.session_expiry`) outlives each restart;
/// every third restart the broker also loses its database, as a broker without persistence would.
/// `HOME2MQTT_BROKER_RESTARTS` runs more.
@Suite struct BrokerRestartTests {
    static let restarts = Int(ProcessInfo.processInfo.environment["HOME2MQTT_BROKER_RESTARTS"] ?? "") ?? 20

    @Test func everyCommandIsCarriedOutAndAnsweredOnceAcrossBrokerRestarts() async throws {
        let persistence = try persistenceDirectory()
        let broker = try await TestBroker(config: "persistence true\npersistence_location \(persistence)/\n")
        defer { broker.stop() }
        try await PiHoleFixture.run(broker: broker) { fixture, _ in
            try await Observer.watching(broker, subscribe: [], configure: { $0.sessionExpiry = 600 }) { commander in
                let burst = CommandBurst(commander)
                var pause = 100
                func sendPause() async throws -> CommandBurst.Sent {
                    pause += 1
                    return try await burst.send("home/pihole/main/pause", "\(pause)")
                }
                for restart in 1...Self.restarts {
                    // Connected: answered before the restart.
                    let before = try await burst.answer(sendPause())
                    #expect(before["status"] == "ok")
                    let losesItsDatabase = restart % 3 == 0
                    broker.stop()
                    if losesItsDatabase { try? FileManager.default.removeItem(atPath: persistence + "/mosquitto.db") }
                    try await broker.restart()
                    try await waitUntil("the commander is back", timeout: .seconds(30)) { commander.client.isConnected }
                    if losesItsDatabase {
                        // Nothing of the bridge's session is left: it re-subscribes and publishes its
                        // retained state and discovery again, and takes commands once it has.
                        try await expectRepublished(broker)
                        try await waitUntil("commands taken again after the re-subscription", timeout: .seconds(30)) {
                            let answer = try? await burst.answer(sendPause(), timeout: .seconds(3))
                            return answer?["status"] == "ok"
                        }
                    } else {
                        // Sent as soon as the commander is back, most often before the bridge is:
                        // the broker keeps it in the bridge's session until it reconnects.
                        let after = try await burst.answer(sendPause(), timeout: .seconds(30))
                        #expect(after["status"] == "ok")
                    }
                }
                // Each carried out exactly once. Its answer is a QoS 1 publish: when a restart takes the
                // broker down between passing the answer on and acknowledging it to the bridge, the
                // bridge sends it again, and the sender sees it twice (the same answer: a client
                // tells repeats apart by the correlation data).
                let calls = fixture["main"].pauseCalls.map(\.seconds)
                for command in burst.sent where !burst.answers(command).isEmpty {
                    #expect(Set(burst.answers(command)).count == 1, "\(command.payload): \(burst.answers(command))")
                    #expect(calls.filter { $0 == Int(command.payload) }.count == 1, "pause \(command.payload): \(calls)")
                }
                #expect(burst.answeredCount >= 2 * Self.restarts)
            }
        }
    }

    /// Commands sent while the bridge is away (stopped: a restart or an upgrade) wait in its
    /// session and are carried out when it is back, unless their MQTT 5 message expiry has passed
    /// by then: the broker drops those, and they never reach the Pi-hole.
    @Test func commandsSentWhileTheBridgeIsAwayAreCarriedOutUnlessExpired() async throws {
        try await PiHoleFixture.withLastingSimulator { simulator, fixture in
            // The same client id both times: the second run resumes the first one's session.
            let yaml = "mqtt:\n  client_id: \(uniqueClientID("away"))\n" + PiHoleFixture.yaml(["main": simulator])
            try await fixture.runBridge(yaml: yaml) { _, _ in }
            try await Observer.watching(fixture.broker, subscribe: [], configure: { $0.sessionExpiry = 600 }) { commander in
                let burst = CommandBurst(commander)
                let lasting = try await burst.send("home/pihole/main/pause", "301")
                let expiring = try await burst.send("home/pihole/main/pause", "302", expiry: 1)
                try await Task.sleep(for: .seconds(2))  // the expiry passes while the bridge is away
                try await fixture.runBridge(yaml: yaml) { _, _ in
                    let carriedOut = try await burst.answer(lasting)
                    #expect(carriedOut["status"] == "ok")
                    // Delivered in order: once a later command is answered, the expired one would have been.
                    let later = try await burst.answer(burst.send("home/pihole/main/pause", "303"))
                    #expect(later["status"] == "ok")
                    #expect(burst.answers(expiring).isEmpty)
                    #expect(simulator.pauseCalls.map(\.seconds) == [301, 303])
                }
            }
        }
    }
}

/// Where mosquitto keeps its database: writable by the unprivileged user it runs as when started by root.
private func persistenceDirectory() throws -> String {
    let path = temporaryStateDirectory()
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
    return path
}

/// A newcomer sees the bridge's retained state and discovery again.
private func expectRepublished(_ broker: TestBroker) async throws {
    try await Observer.watching(broker, subscribe: ["home/bridge/state", "homeassistant/#"]) { newcomer in
        _ = try await newcomer.latest("home/bridge/state", timeout: .seconds(30)) { $0 == "online" }
        try await waitUntil("discovery published again", timeout: .seconds(30)) {
            newcomer.recorder.messages.contains { $0.topic.hasPrefix("homeassistant/") && !$0.payload.isEmpty }
        }
    }
}
