#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One integration's timers: what a timed command promised to undo, kept across restarts.
///
/// The integration sets a timer when it carries out a timed command, and runs `run` beside its
/// polling so each timer's `restore` is carried out when it falls due.
public struct IntegrationTimers: Sendable {
    let store: TimerStore
    let integration: String
    /// Told of every restore carried out (for `bridge/event`).
    let carriedOut: (@Sendable (PersistedTimer) -> Void)?
    /// Set while a scene's part runs: what it promises to undo goes to the scene's one promise,
    /// not to timers of its own.
    let capture: ScenePartCapture?

    public init(store: TimerStore, integration: String) {
        self.init(store: store, integration: integration, carriedOut: nil)
    }

    init(store: TimerStore, integration: String, carriedOut: (@Sendable (PersistedTimer) -> Void)?, capture: ScenePartCapture? = nil) {
        self.store = store
        self.integration = integration
        self.carriedOut = carriedOut
        self.capture = capture
    }

    /// These timers, with what a timed change promises going to `capture`.
    func capturing(into capture: ScenePartCapture) -> IntegrationTimers {
        IntegrationTimers(store: store, integration: integration, carriedOut: carriedOut, capture: capture)
    }

    /// Promises to carry out `restore` for `key` after `delay`, replacing any earlier promise for
    /// the same key. - Returns: the replaced timer, if any.
    @discardableResult
    public func set(key: String, restore: JSONValue, after delay: Duration) async throws(CommandError) -> PersistedTimer? {
        if let capture {
            capture.record(key: key, restore: restore)
            // The scene keeps the promise now, including one a timed command made before it.
            return try await cancel(key: key)
        }
        // The file keeps whole seconds: the due time is rounded up to one, so that reading it back
        // after a restart never brings the restore forward.
        let now = store.clock.wallNow
        let dueAt = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + delay.timeInterval).rounded(.up))
        let timer = PersistedTimer(integration: integration, key: key, restore: restore, dueAt: dueAt)
        do {
            return try await store.set(timer, after: .milliseconds(Int64((dueAt.timeIntervalSince(now) * 1000).rounded(.up))))
        } catch {
            throw CommandError("the timer could not be saved: \(fileErrorText(error))", code: .conflict)
        }
    }

    /// Drops the promise for `key` (a plain command replaces a timed one). - Returns: the dropped timer.
    @discardableResult
    public func cancel(key: String) async throws(CommandError) -> PersistedTimer? {
        do {
            return try await store.remove(TimerID(integration: integration, key: key))
        } catch {
            throw CommandError("the timer could not be saved: \(fileErrorText(error))", code: .conflict)
        }
    }

    public func pending(key: String) -> PersistedTimer? {
        if let capture, let restore = capture.restore(key: key) {
            return PersistedTimer(integration: integration, key: key, restore: restore, dueAt: capture.dueAt)
        }
        return store.pending(integration: integration).first { $0.key == key }
    }

    /// Drops `timer` once carried out, unless a newer promise replaced it meanwhile.
    func complete(_ timer: PersistedTimer) async {
        _ = try? await store.complete(timer)
    }

    /// For a change whose end the upstream itself keeps (a Pi-hole's pause): when a scene carries
    /// it out, the scene promises what `restore` makes (`nil`: nothing to undo), for its OFF;
    /// otherwise `restore` is not even asked.
    public func promiseToScene(key: String, restore: () -> JSONValue?) {
        guard let capture, let value = restore() else { return }
        capture.record(key: key, restore: value)
    }

    public var pending: [PersistedTimer] {
        store.pending(integration: integration)
    }

    /// Tries again now the timers that fell due and were not carried out yet (their restore said
    /// "not yet"), rather than after the usual delay: for an integration that knows the moment
    /// that changed, as a reading that lets an interlock's hold end.
    public func retryNow() {
        store.retryNow(integration: integration)
    }

    /// Carries out each timer when due, until cancelled. `fire` returns whether the restore
    /// succeeded; a failed one is tried again a little later, for as long as it takes.
    public func run(_ fire: @Sendable (PersistedTimer) async -> Bool) async {
        let carriedOut = carriedOut, store = store
        await store.run(integration: integration) { timer in
            let succeeded = await fire(timer)
            if succeeded, !store.isSuperseded(timer) { carriedOut?(timer) }
            return succeeded
        }
    }

    /// Whether `timer`, due and being carried out, was replaced or dropped while its restore
    /// waited for its turn: a command for its object came first, and the restore must not undo
    /// it (it is settled, with nothing done). Never for a scene's restore, which no timer of this
    /// integration's holds.
    func isSuperseded(_ timer: PersistedTimer) -> Bool {
        store.isSuperseded(timer)
    }
}
