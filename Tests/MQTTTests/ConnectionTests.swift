import Foundation
@_spi(Testing) import MQTT
import LoopbackSocket
import MQTTTestSupport
import Testing

@Suite("connection life cycle")
struct ConnectionTests {
    @Test("disconnect() is idempotent and finishes both streams")
    func disconnectFinishesStreams() async throws {
        try await withTestBroker { broker in
            let client = try await connectedClient(broker, "idem")
            let recorder = MessageRecorder(client.messages)
            #expect(client.isConnected)
            await client.disconnect()
            await client.disconnect()
            #expect(!client.isConnected)
            try await recorder.waitUntilFinished()
            var events: [MQTTConnectionEvent] = []
            for await event in client.connectionEvents { events.append(event) }
            #expect(events == [.connected(reconnect: false), .disconnected(reason: "client disconnected")])
            await #expect(throws: MQTTError.self) { try await client.publish("t", payload: []) }
            await #expect(throws: MQTTError.self) { try await client.waitUntilConnected(timeout: .seconds(1)) }
        }
    }

    @Test("disconnect() without start() finishes the streams")
    func disconnectUnstarted() async throws {
        let client = try MQTTClient(configuration: .init(clientID: uniqueID("never")), logger: testLogger("never"))
        let recorder = MessageRecorder(client.messages)
        await client.disconnect()
        try await recorder.waitUntilFinished()
        #expect(client.reconnectCount == 0)
    }

    @Test("a clean disconnect does not publish the will; a broken connection does")
    func will() async throws {
        try await withTestBroker { broker in
            let watcher = try await connectedClient(broker, "watcher")
            let recorder = MessageRecorder(watcher.messages)
            try await watcher.subscribe("wills/#")

            let will = MQTTWill(topic: "wills/clean", payload: "offline".bytes, qos: .atLeastOnce, retain: false)
            let clean = try await connectedClient(broker, "clean") { $0.will = will }
            await clean.disconnect()
            // Marker published after the clean disconnect; once it arrives, a will would have too.
            try await watcher.publish("wills/marker", payload: [], qos: .atLeastOnce)
            _ = try await recorder.first(topic: "wills/marker")
            #expect(!recorder.messages.contains { $0.topic == "wills/clean" })

            let crashWill = MQTTWill(topic: "wills/crash", payload: "offline".bytes, qos: .atLeastOnce, retain: true)
            let crashing = try await connectedClient(broker, "crash") { $0.will = crashWill }
            crashing.dropConnectionForTesting()
            let message = try await recorder.first(topic: "wills/crash")
            #expect(message.payloadString == "offline")
            // It reconnects by itself afterwards.
            try await waitUntil("reconnect after the dropped connection") { crashing.reconnectCount == 1 && crashing.isConnected }
            await crashing.disconnect()
            await watcher.disconnect()
        }
    }

    @Test("after a broker restart: re-subscribed, retained state re-published, reconnectCount 1")
    func reconnectAfterRestart() async throws {
        try await withTestBroker { broker in
            let client = try await connectedClient(broker, "bridge")
            var events = client.connectionEvents.makeAsyncIterator()
            let recorder = MessageRecorder(client.messages)
            try await client.subscribe("bridge/+/set")
            client.publishRetained("bridge/state", payload: "online".bytes)
            client.publishRetained("bridge/gone", payload: "x".bytes)
            // An empty retained payload clears the topic and forgets it.
            client.publishRetained("bridge/gone", payload: [])
            // Acknowledged after those (QoS 1, in order): none of them is still in flight when the
            // broker stops, to be sent again after the restart.
            try await client.publish("bridge/sent", payload: [], qos: .atLeastOnce)
            #expect(client.reconnectCount == 0)

            try await broker.restart()
            try await waitUntil("the client to reconnect", timeout: .seconds(10)) { client.isConnected && client.reconnectCount == 1 }
            // The reconnect's event comes once the remembered state is handed on: a message
            // acknowledged after it reached the broker after the re-publish, which the fresh
            // subscription below then finds retained (subscribed earlier, it could get it live).
            while let event = await events.next(), event != .connected(reconnect: true) {}
            try await client.publish("bridge/sent", payload: [], qos: .atLeastOnce)

            let fresh = try await connectedClient(broker, "fresh")
            let freshRecorder = MessageRecorder(fresh.messages)
            try await fresh.subscribe("bridge/#")
            let state = try await freshRecorder.first(topic: "bridge/state")
            #expect(state.retain && state.payloadString == "online")

            // Re-subscribed: a command sent after the restart reaches the original client.
            try await waitUntil("re-subscription to be active") {
                try await fresh.publish("bridge/lamp/set", payload: "ON".bytes, qos: .atLeastOnce)
                return recorder.messages.contains { $0.topic == "bridge/lamp/set" }
            }
            try await fresh.publish("bridge/marker", payload: [], qos: .atLeastOnce)
            _ = try await freshRecorder.first(topic: "bridge/marker")
            #expect(!freshRecorder.messages.contains { $0.topic == "bridge/gone" })
            #expect(client.reconnectCount == 1)
            await fresh.disconnect()
            await client.disconnect()
        }
    }

    @Test("connectionEvents report connect, loss and reconnect")
    func events() async throws {
        try await withTestBroker { broker in
            let client = try await connectedClient(broker, "events")
            var iterator = client.connectionEvents.makeAsyncIterator()
            #expect(await iterator.next() == .connected(reconnect: false))
            client.dropConnectionForTesting()
            guard case .disconnected = await iterator.next() else {
                Issue.record("expected a disconnected event")
                return
            }
            #expect(await iterator.next() == .connected(reconnect: true))
            await client.disconnect()
        }
    }

    @Test("wrong credentials make connect() throw at once")
    func wrongCredentials() async throws {
        let config = "allow_anonymous false\npassword_file PASSWORDS\n"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = directory.appendingPathComponent("passwords").path
        try runTool("/usr/bin/mosquitto_passwd", ["-b", "-c", passwordFile, "bridge", "secret"])
        _ = chmod(directory.path, 0o755)
        _ = chmod(passwordFile, 0o644)

        try await withTestBroker(config: config.replacingOccurrences(of: "PASSWORDS", with: passwordFile)) { broker in
            let started = ContinuousClock.now
            let bad = try makeClient(broker, "bad") {
                $0.username = "bridge"
                $0.password = "wrong"
                $0.reconnect = MQTTReconnectPolicy()  // slow retries: must not matter
            }
            let error = await #expect(throws: MQTTError.self) { try await bad.connect(timeout: .seconds(20)) }
            #expect(error?.code == .connectionRefused)
            #expect(error?.description.lowercased().contains("password") == true || error?.description.lowercased().contains("authorized") == true,
                    "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(5))

            let good = try await connectedClient(broker, "good") {
                $0.username = "bridge"
                $0.password = "secret"
            }
            #expect(good.isConnected)
            await good.disconnect()
        }
    }

    /// Between `stop()` and `restart()` no other test's broker or connection may take the port.
    @Test("a stopped broker's port refuses connections and is held for its restart")
    func stoppedBrokerHoldsItsPort() async throws {
        try await withTestBroker { broker in
            broker.stop()
            #expect(!LoopbackPort.accepts(port: broker.port))
            #expect(throws: LoopbackSocketError.self) { try BoundLoopbackSocket(port: broker.port) }
            try await broker.restart()
            #expect(LoopbackPort.accepts(port: broker.port))
        }
    }

    @Test("connect() to a port with no broker times out with the last error")
    func timeout() async throws {
        try await LoopbackPort.withRefusing { port in
            var configuration = MQTTConfiguration(clientID: uniqueID("nobody"), port: port)
            configuration.reconnect = fastReconnect
            let client = try MQTTClient(configuration: configuration, logger: testLogger("nobody"))
            let error = await #expect(throws: MQTTError.self) { try await client.connect(timeout: .milliseconds(500)) }
            #expect(error?.code == .timeout)
            #expect(error?.message.contains("refused") == true, "\(String(describing: error))")
        }
    }

    @Test("QoS 0 publish while offline throws notConnected; invalid configurations are rejected")
    func offlineAndValidation() async throws {
        let client = try MQTTClient(configuration: .init(clientID: uniqueID("offline")), logger: testLogger("offline"))
        let error = await #expect(throws: MQTTError.self) { try await client.publish("t", payload: [1]) }
        #expect(error?.code == .notConnected)
        await client.disconnect()

        var tls = MQTTConfiguration(clientID: "tls")
        tls.tls = MQTTTLS(caFile: "/nonexistent/ca.pem")
        #expect(throws: MQTTError.self) { try MQTTClient(configuration: tls, logger: testLogger("tls")) }
        #expect(throws: MQTTError.self) { try MQTTClient(configuration: .init(clientID: ""), logger: testLogger("empty")) }
        var keepAlive = MQTTConfiguration(clientID: "ka")
        keepAlive.keepAlive = 2
        #expect(throws: MQTTError.self) { try MQTTClient(configuration: keepAlive, logger: testLogger("ka")) }
    }
}

func runTool(_ path: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw TestSupportError("\(path) \(arguments) exited with \(process.terminationStatus)")
    }
}
