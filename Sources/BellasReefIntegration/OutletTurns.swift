import Synchronization

/// One thing at a time per outlet, between an interlock's trip and a user's command: each sees
/// the other's outcome whole, so which came later (and wins) is never a mix of both.
final class OutletTurns: Sendable {
    /// The outlets someone has a turn on, each with those waiting for theirs, in arrival order.
    private let busy = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    func run<T: Sendable, Failure: Error>(_ outletID: String, _ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        await take(outletID)
        defer { pass(outletID) }
        return try await body()
    }

    private func take(_ outletID: String) async {
        // Not cancellable: a turn lasts one outlet's few requests, each with its own time limit.
        await withCheckedContinuation { continuation in
            let free = busy.withLock { busy in
                guard busy[outletID] != nil else {
                    busy[outletID] = []
                    return true
                }
                busy[outletID]?.append(continuation)
                return false
            }
            if free { continuation.resume() }
        }
    }

    private func pass(_ outletID: String) {
        let next = busy.withLock { busy -> CheckedContinuation<Void, Never>? in
            guard var waiting = busy[outletID], !waiting.isEmpty else {
                busy[outletID] = nil
                return nil
            }
            let next = waiting.removeFirst()
            busy[outletID] = waiting
            return next
        }
        next?.resume()
    }
}
