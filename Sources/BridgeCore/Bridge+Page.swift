extension Bridge {
    /// Carries out a command from the page as the same MQTT message would be: `topic` (under the
    /// base topic) and `payload` go through its integration's queue, with its limits and metrics,
    /// and the answer is the one an MQTT client would get.
    public func carryOutFromPage(topic: String, payload: [UInt8]) async -> CommandResponse {
        guard let activity else { return CommandResponse(result: .failure(CommandError("the page is off")), transaction: nil) }
        let queues = commandQueues.withLock { $0 }
        return await activity.pageCommand(topic, payload) { message in
            guard let queue = queues.first(where: { $0.accepts(topic) }) else {
                let refusal = queues.isEmpty ? "the bridge is not online yet" : "no command at '\(topic)'"
                _ = activity.answered(message, CommandResponse(result: .failure(CommandError(refusal)), transaction: nil))
                return
            }
            activity.received(message)
            queue.enqueue(message)
        }
    }
}
