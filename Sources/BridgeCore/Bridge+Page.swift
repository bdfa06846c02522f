extension Bridge {
    /// Carries out a command from the page as the same MQTT message would be: `topic` (under the
    /// base topic) and `payload` go through its integration's queue, with its limits and metrics,
    /// and the answer is the one an MQTT client would get.
    public func carryOutFromPage(topic: String, payload: [UInt8]) async -> CommandResponse {
        guard let activity else { return CommandResponse(result: .failure(CommandError("the page is off", code: .conflict)), transaction: nil) }
        let isServing = isServing.load(ordering: .acquiring), running = running
        return await activity.pageCommand(topic, payload) { message in
            guard isServing, let queue = running.queue(accepting: topic) else {
                let refusal = isServing
                    ? CommandError("no command at '\(topic)'", code: .unknownTarget) : CommandError("the bridge is not online yet", code: .notReady)
                _ = activity.answered(message, CommandResponse(result: .failure(refusal), transaction: nil))
                return
            }
            activity.received(message)
            queue.enqueue(message)
        }
    }
}
