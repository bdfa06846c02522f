import MQTT
import Synchronization

/// Drains a client's message stream in the background and records everything, so a test can wait
/// for several different messages (with deadlines) without ever cancelling the stream itself.
public final class MessageRecorder: Sendable {
    /// A class around the Mutex so the background task can share it (a Mutex cannot be copied).
    private final class Storage: Sendable {
        let mutex = Mutex<(messages: [MQTTMessage], finished: Bool)>(([], false))
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    public init(_ stream: AsyncStream<MQTTMessage>) {
        let storage = self.storage
        task = Task {
            for await message in stream {
                storage.mutex.withLock { $0.messages.append(message) }
            }
            storage.mutex.withLock { $0.finished = true }
        }
    }

    deinit { task.cancel() }

    public var messages: [MQTTMessage] { storage.mutex.withLock { $0.messages } }

    /// True once the underlying stream has finished.
    public var isFinished: Bool { storage.mutex.withLock { $0.finished } }

    /// The first recorded message (past or future) matching `predicate`.
    public func first(
        timeout: Duration = .seconds(5),
        where predicate: (MQTTMessage) -> Bool
    ) async throws -> MQTTMessage {
        var found: MQTTMessage?
        try await waitUntil("a matching message (recorded so far: \(messages.map(\.topic)))", timeout: timeout) {
            found = messages.first(where: predicate)
            return found != nil
        }
        return found!
    }

    /// The first message on `topic`.
    public func first(topic: String, timeout: Duration = .seconds(5)) async throws -> MQTTMessage {
        try await first(timeout: timeout) { $0.topic == topic }
    }

    /// Waits until the stream has finished.
    public func waitUntilFinished(timeout: Duration = .seconds(5)) async throws {
        try await waitUntil("the message stream to finish", timeout: timeout) { isFinished }
    }
}
