import MQTT

/// A client in the bridge's own process that shows what the bridge does (the page): told of every
/// message the bridge publishes and every command it answers, as it happens. Called on the
/// bridge's tasks, and for every publish: it must only hand them on.
public protocol BridgeObserver: Sendable {
    /// `carriesCredentials`: the topic is one of an integration's `CredentialTopics`, whose text
    /// is not to be shown.
    func published(_ topic: String, _ payload: [UInt8], retain: Bool, carriesCredentials: Bool)

    func answered(_ command: AnsweredCommand)
}

/// A command and its answer, whoever sent it (MQTT or `Bridge.send`).
public struct AnsweredCommand: Sendable {
    public let topic: String
    public let payload: [UInt8]
    public let response: CommandResponse
    /// From its arrival at its queue to its answer.
    public let duration: Duration
    /// Sent with `Bridge.send` rather than over MQTT.
    public let sentInProcess: Bool
    /// On one of an integration's `CredentialTopics`: its payload and answer are not to be shown.
    public let carriesCredentials: Bool

    public init(
        topic: String, payload: [UInt8], response: CommandResponse, duration: Duration, sentInProcess: Bool, carriesCredentials: Bool
    ) {
        self.topic = topic
        self.payload = payload
        self.response = response
        self.duration = duration
        self.sentInProcess = sentInProcess
        self.carriesCredentials = carriesCredentials
    }
}
