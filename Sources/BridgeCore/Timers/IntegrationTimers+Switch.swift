extension IntegrationTimers {
    /// Changes a thing (`key`) for good or for a while, keeping one promise per thing:
    /// - timed (`duration` set): `makeRestore` is asked what to promise, given the restore already
    ///   pending for `key` — a run of timed commands restores the state before the first of them —
    ///   then `change` runs, then the timer is set;
    /// - plain: `change` runs, then any pending restore is dropped: the person decided.
    ///
    /// A failed read or change leaves the timers as they were.
    public func change<T: Sendable>(
        key: String, timedFor duration: Duration?,
        restore makeRestore: (_ pending: JSONValue?) async throws -> JSONValue,
        _ change: () async throws -> T
    ) async throws -> T {
        guard let duration else {
            let result = try await change()
            try await cancel(key: key)
            return result
        }
        let restore = try await makeRestore(pending(key: key)?.restore)
        let result = try await change()
        try await set(key: key, restore: restore, after: duration)
        return result
    }
}
