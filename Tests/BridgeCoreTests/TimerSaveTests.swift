import BridgeCore
import BridgeTestSupport
import Foundation
import Synchronization
import MQTTTestSupport
import Testing

@Suite struct TimerSaveTests {
    /// A disk that takes its time to save a timer (an SD card's fsync can take tens of
    /// milliseconds; here the timers' temporary file is a FIFO, which cannot be opened for writing
    /// until something reads it) holds up only the timed command: a command for another thing is
    /// carried out and answered meanwhile.
    @Test func aSlowSaveHoldsUpNoOtherThing() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let stateDirectory = temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        let fifo = stateDirectory + "/timers.json.tmp"
        try #require(mkfifo(fifo, 0o600) == 0)
        let yaml = "bridge:\n  state_dir: \(stateDirectory)\n"
        try await withRunningBridge(broker: broker, yaml: yaml, integrations: [EchoIntegration()]) { _ in
            let observer = try await Observer(broker, subscribe: ["home/#"])
            defer { Task { await observer.disconnect() } }
            _ = try await observer.latest("home/echo/availability")
            let burst = CommandBurst(observer)
            // Ends the save in 10 s at the latest: a save that held up the whole bridge would
            // otherwise hold up this test too.
            let drainer = FIFODrainer(fifo, atTheLatestAfter: .seconds(10))
            let timed = try await burst.send("home/echo/lamp/set", #"{"enabled":false,"for":60}"#)
            let other = try await burst.send("home/echo/desk/set", "ON")
            let answer = try await burst.answer(other, timeout: .seconds(20))
            #expect(burst.answers(timed).isEmpty, "the timed command waits for its save")
            #expect(answer == ["status": "ok", "data": ["on": true]])
            // Ends the save now: its fsync then fails on the FIFO, and the command says so.
            #expect(try await drainer.drainNow().contains("lamp"))
            let refused = try await burst.answer(timed)
            #expect(refused["error"] == "the timer could not be saved: Invalid argument", "fsync on a FIFO, in the system's words: \(refused)")
        }
    }
}

/// Reads a FIFO until its writer closes it, on a thread of its own: when asked, or after a while
/// whatever happens.
private final class FIFODrainer: Sendable {
    private let state = Mutex<(asked: Bool, read: String?)>((false, nil))

    init(_ fifo: String, atTheLatestAfter wait: Duration) {
        let deadline = ContinuousClock.now + wait
        Thread.detachNewThread {
            while !self.state.withLock(\.asked), ContinuousClock.now < deadline { usleep(5_000) }
            let read = Self.drain(fifo)
            self.state.withLock { $0.read = read }
        }
    }

    func drainNow() async throws -> String {
        state.withLock { $0.asked = true }
        try await waitUntil("the FIFO drained", timeout: .seconds(20)) { state.withLock { $0.read != nil } }
        return state.withLock { $0.read! }
    }

    private static func drain(_ fifo: String) -> String {
        let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(10)
        // Until the writer, once there is one, closes it.
        while ContinuousClock.now < deadline {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0, !bytes.isEmpty {
                break
            } else {
                usleep(5_000)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
