import MQTT

/// Polls `condition` until it is true or `timeout` passes (then throws with `description`).
public func waitUntil(
    _ description: @autoclosure () -> String = "condition",
    timeout: Duration = .seconds(5),
    pollInterval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        if try await condition() { return }
        if ContinuousClock.now >= deadline {
            throw TestSupportError("timed out after \(timeout) waiting for \(description())")
        }
        try await Task.sleep(for: pollInterval)
    }
}

extension AsyncStream where Element == MQTTMessage {
    /// Reads the stream until a message matches `predicate` and returns it, or throws after `timeout`.
    ///
    /// Messages before the match are consumed. On timeout the reading task is cancelled, which
    /// *terminates the stream* (AsyncStream semantics); to wait several times on one client's
    /// messages use `MessageRecorder` instead.
    public func first(
        timeout: Duration = .seconds(5),
        where predicate: @escaping @Sendable (MQTTMessage) -> Bool
    ) async throws -> MQTTMessage {
        try await collect(messages: 1, until: predicate, timeout: timeout)[0]
    }

    /// Reads the stream until `messages` messages matching `predicate` have arrived, with a deadline.
    /// Same consumption and cancellation rules as `first(timeout:where:)`.
    public func collect(
        messages count: Int,
        until predicate: @escaping @Sendable (MQTTMessage) -> Bool = { _ in true },
        timeout: Duration = .seconds(5)
    ) async throws -> [MQTTMessage] {
        try await withThrowingTaskGroup(of: [MQTTMessage]?.self) { group in
            group.addTask {
                var matched: [MQTTMessage] = []
                for await message in self where predicate(message) {
                    matched.append(message)
                    if matched.count >= count { return matched }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TestSupportError("timed out after \(timeout) waiting for \(count) matching message(s)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw TestSupportError("message stream finished before \(count) matching message(s) arrived")
            }
            return result
        }
    }
}
