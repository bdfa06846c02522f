import MQTT

extension Bridge {
    /// Carries out a command for a client in this process (the page) as the same MQTT message
    /// would be: `topic` (under the base topic) and `payload` go through its integration's queue,
    /// with its lanes, limits and metrics, and the answer an MQTT client would get comes back here
    /// alone.
    public func send(topic: String, payload: [UInt8]) async -> CommandResponse {
        guard isServing.load(ordering: .acquiring) else {
            return CommandResponse(result: .failure(CommandError("the bridge is not online yet", code: .notReady)), transaction: nil)
        }
        guard let queue = running.queue(accepting: topic) else {
            return CommandResponse(result: .failure(CommandError("no command at '\(topic)'", code: .unknownTarget)), transaction: nil)
        }
        let message = MQTTMessage(topic: topic, payload: payload, qos: .atLeastOnce, retain: false)
        return await withCheckedContinuation { queue.enqueue(message, from: .inProcess($0)) }
    }

    /// Whether `topic` is one of an integration's `EverydayCommands`: what a client that shows the
    /// bridge to the household may send.
    public func isEverydayCommand(_ topic: String) -> Bool {
        running.queue(accepting: topic)?.acceptsEveryday(topic) ?? false
    }
}
