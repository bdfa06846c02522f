/// Runs `operation`, giving up after `limit`. The operation is cancelled at the limit and
/// must honour cancellation (every upstream call here has its own timeout as a backstop).
/// - Returns: the operation's result, or `nil` when the limit came first.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
