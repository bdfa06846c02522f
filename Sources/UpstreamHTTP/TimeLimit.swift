/// Runs `operation`, giving up after `limit`. The operation is cancelled at the limit and
/// must honour cancellation (every upstream call here has its own timeout as a backstop).
///
/// `sleepSlice`: for time limits that are set many times a second and mostly beaten (a
/// command's, an upstream request's, a signalled wait's). On Linux a cancelled `Task.sleep`
/// keeps its timer, a dispatch source and a task, until its deadline: with a 15 s limit per
/// command and an hour-long wait signalled by every UniFi command, 20,000 commands kept 12 MiB
/// alive (issue 10), and every Pi-hole request's 10 s limit kept thousands of timers in the
/// dispatch timer heap, alive and resorted, after a burst of commands. Sleeping in slices, a
/// beaten limit's timer outlives it by one slice at most.
/// - Returns: the operation's result, or `nil` when the limit came first.
public func withTimeLimit<T: Sendable>(
    _ limit: Duration, sleepSlice: Duration? = nil, _ operation: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            let deadline = ContinuousClock.now + limit
            while !Task.isCancelled, ContinuousClock.now < deadline {
                try? await Task.sleep(until: sleepSlice.map { min(deadline, .now + $0) } ?? deadline, clock: .continuous)
            }
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
