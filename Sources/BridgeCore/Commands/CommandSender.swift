/// Who waits for a command's answer, and so where `CommandResponder` sends it.
enum CommandSender: Sendable {
    /// An MQTT client: on the response topic its message names, or the default one.
    case mqtt
    /// A client in this process (`Bridge.send`): to the caller, and shown to the observer as
    /// MQTT's are.
    case inProcess(CheckedContinuation<CommandResponse, Never>)
    /// The bridge itself (a scene's part, `CommandQueue.perform`): to the caller alone.
    case bridge(CheckedContinuation<CommandResponse, Never>)

    /// Whether the answer reaches the sender alone: a caller's does; an MQTT client's is known by
    /// its message (`nil`: `CommandRequest.parse` tells by its response topic).
    var answersPrivately: Bool? {
        if case .mqtt = self { nil } else { true }
    }
}

/// Who sent a command, and when it reached its queue: where its answer goes, and how long it took.
struct CommandArrival: Sendable {
    let sender: CommandSender
    /// Read only when an observer is told of the answer.
    let at: ContinuousClock.Instant?
}
