import Synchronization

/// Awaiting callers keyed by libmosquitto message id (publish QoS>0, subscribe, unsubscribe):
/// each a task's continuation, or a callback for a publish whose caller goes on without waiting.
///
/// The libmosquitto call that assigns the mid runs *inside* `register`, under this lock, and the
/// acknowledgement callback takes the same lock, so an acknowledgement that arrives before the caller
/// has stored its continuation simply waits for the lock. libmosquitto never holds a mutex of its own
/// that publish/subscribe need while it runs these callbacks, so this cannot deadlock.
final class PendingOperations: Sendable {
    enum Kind: Sendable { case publish, subscribe, unsubscribe }

    /// Who learns the outcome: resumed (a task) or called (on the network thread) with it.
    typealias Outcome = @Sendable (Result<[Int32], MQTTError>) -> Void

    private struct Entry {
        let kind: Kind
        let outcome: Outcome
    }

    private let entries = Mutex<[Int32: Entry]>([:])
    /// Told whenever a waiter is settled: `MQTTClient.stopReceiving()` waits for the last publish's.
    private let changes: StateChanges

    init(changes: StateChanges) {
        self.changes = changes
    }
    /// False after `stopAcknowledgedPublishes()`; read and set under `entries`' lock too, so that
    /// no publish can park a waiter after the last one was counted.
    private let acknowledgedPublishes = Mutex(true)

    /// Runs `start` (which returns the mid) and parks `continuation` under that mid.
    /// If `start` throws, the continuation is resumed with that error.
    func register(
        _ kind: Kind,
        _ continuation: CheckedContinuation<[Int32], any Error>,
        start: () throws(MQTTError) -> Int32
    ) {
        entries.withLock { entries in
            do {
                let mid = try start()
                entries[mid] = Entry(kind: kind, outcome: Self.resuming(continuation))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// A QoS 1/2 publish: `start(true)` publishes it and `outcome` gets the acknowledgement.
    /// After `stopAcknowledgedPublishes()`, `start(false)` publishes it at QoS 0 and `outcome`
    /// gets success at once: nothing will acknowledge it.
    func registerPublish(_ outcome: @escaping Outcome, start: (_ acknowledged: Bool) throws(MQTTError) -> Int32) {
        let settled = entries.withLock { entries -> Result<[Int32], MQTTError>? in
            do throws(MQTTError) {
                if acknowledgedPublishes.withLock({ $0 }) {
                    entries[try start(true)] = Entry(kind: .publish, outcome: outcome)
                    return nil
                }
                _ = try start(false)
                return .success([])
            } catch {
                return .failure(error)
            }
        }
        if let settled { outcome(settled) }
    }

    static func resuming(_ continuation: CheckedContinuation<[Int32], any Error>) -> Outcome {
        { continuation.resume(with: $0.mapError { $0 as any Error }) }
    }

    /// From now on publishes go out at QoS 0 (see `MQTTClient.stopReceiving()`).
    func stopAcknowledgedPublishes() {
        entries.withLock { _ in acknowledgedPublishes.withLock { $0 = false } }
    }

    /// Whether a publish still waits for its acknowledgement.
    var hasPublishWaiters: Bool {
        entries.withLock { entries in entries.values.contains { $0.kind == .publish } }
    }

    /// Resumes the caller waiting on `mid`; returns false when nobody waits (internal re-subscribes,
    /// QoS 0 publishes).
    @discardableResult
    func complete(_ mid: Int32, with result: Result<[Int32], MQTTError>) -> Bool {
        guard let entry = entries.withLock({ $0.removeValue(forKey: mid) }) else { return false }
        entry.outcome(result)
        changes.signal()
        return true
    }

    /// Fails every waiter of the given kinds.
    func failAll(_ kinds: Set<Kind>, with error: MQTTError) {
        let failed = entries.withLock { entries in
            let matching = entries.filter { kinds.contains($0.value.kind) }
            for mid in matching.keys { entries.removeValue(forKey: mid) }
            return Array(matching.values)
        }
        for entry in failed { entry.outcome(.failure(error)) }
        changes.signal()
    }
}
