import Synchronization

/// One thing at a time per key, in arrival order: an interlock's trip and a user's command on one
/// outlet, a scene's ON and its time running out. Each sees the other's outcome whole, so which
/// came later (and wins) is never a mix of both.
public final class Turns: Sendable {
    /// The keys someone has a turn on, each with those waiting for theirs, in arrival order.
    private let busy = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    public init() {}

    public func run<T: Sendable, Failure: Error>(_ key: String, _ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await take(key)
        defer { pass(key) }
        return try await body()
    }

    private func take(_ key: String) async {
        // Not cancellable: a turn lasts a few requests, each with its own time limit.
        await withCheckedContinuation { continuation in
            let free = busy.withLock { busy in
                guard busy[key] != nil else {
                    busy[key] = []
                    return true
                }
                busy[key]?.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    private func pass(_ key: String) {
        let next = busy.withLock { busy -> CheckedContinuation<Void, Never>? in
            guard var waiting = busy[key], !waiting.isEmpty else {
                busy[key] = nil
                return nil
            }
            let next = waiting.removeFirst()
            busy[key] = waiting
            return next
        }
        next?.resume()
    }
}
