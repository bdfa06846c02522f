import Foundation
import MQTT
import MQTTTestSupport
import Testing

@Suite("retained state published without waiting for the broker")
struct RetainedStateTests {
    /// What a bridge does during an outage: its state keeps changing. Only the latest of each
    /// topic is kept (10,000 changes of 16 kB each would be 160 MB as a backlog), and the connect
    /// sends exactly that, not the changes one by one.
    @Test("offline, the latest per topic: memory stays flat and the connect sends the state, not a backlog")
    func anOutageKeepsTheLatestOfEachTopic() async throws {
        try await withTestBroker { broker in
            let client = try await connectedClient(broker, "bridge")
            var events = client.connectionEvents.makeAsyncIterator()
            broker.stop()
            try await waitUntil("the client to notice the broker gone", timeout: .seconds(10)) { !client.isConnected }
            let padding = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
            func change(_ number: Int) { client.publishRetained("state/\(number % 10)", payload: Array("\(number) ".utf8) + padding) }
            for number in 0..<1_000 { change(number) }
            let before = residentBytes()
            for number in 1_000..<11_000 { change(number) }
            let grown = residentBytes() - before
            // Other suites of the pass allocate meanwhile: a bound well under the backlog, not a measurement.
            #expect(grown < 64 << 20, "grew by \(grown) bytes over 10,000 changes")

            try await broker.restart()
            try await waitUntil("the client back", timeout: .seconds(10)) { client.isConnected }
            // The reconnect's event comes once the kept state is handed on; a message acknowledged
            // after it reached the broker after that state, which the fresh subscription below then
            // finds retained (subscribed earlier, it could get the states live, as a clean clone's
            // CI once saw).
            while let event = await events.next(), event != .connected(reconnect: true) {}
            try await client.publish("marker", payload: [], qos: .atLeastOnce)
            let fresh = try await connectedClient(broker, "fresh")
            let recorder = MessageRecorder(fresh.messages)
            try await fresh.subscribe("state/#")
            try await waitUntil("the ten states") { Set(recorder.messages.map(\.topic)).count == 10 }
            for message in recorder.messages {
                let number = Int(message.payloadString?.split(separator: " ").first ?? "") ?? -1
                #expect(message.retain && number >= 10_990, "\(message.topic): \(number)")
            }
            let sent = broker.log().components(separatedBy: "Received PUBLISH from \(client.configuration.clientID)").count - 1
            #expect(sent == 11, "the broker received \(sent) publishes: the ten states and the marker")
            await fresh.disconnect()
            await client.disconnect()
        }
    }

    /// Never waiting: a broker that stopped reading (SIGSTOP) holds up no caller.
    @Test("returns at once while the broker does not acknowledge")
    func neverWaitsForTheBroker() async throws {
        try await withTestBroker { broker in
            let client = try await connectedClient(broker, "bridge")
            let pid = try #require(broker.pid)
            kill(pid, SIGSTOP)
            defer { kill(pid, SIGCONT) }
            let started = ContinuousClock.now
            for number in 0..<100 { client.publishRetained("state/\(number % 5)", payload: Array("\(number)".utf8)) }
            #expect(ContinuousClock.now - started < .seconds(1))
            kill(pid, SIGCONT)
            await client.disconnect()
        }
    }

    /// The process's resident memory, from `/proc/self/statm`.
    private func residentBytes() -> Int {
        let fields = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?.split(separator: " ") ?? []
        return (fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
