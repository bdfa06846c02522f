import MQTT
import Synchronization

/// What the bridge tells its observer, with the credential topics marked: the integrations'
/// `CredentialTopics`, added as each integration is made (at the start and at a reload).
final class ObserverFeed: Sendable {
    let observer: any BridgeObserver
    private let credentialFilters = Mutex<Set<String>>([])

    init(_ observer: any BridgeObserver) {
        self.observer = observer
    }

    func addCredentialTopics(_ filters: [String]) {
        credentialFilters.withLock { $0.formUnion(filters) }
    }

    private func carriesCredentials(_ topic: String) -> Bool {
        credentialFilters.withLock { $0.contains { TopicFilter.matches($0, topic: topic) } }
    }

    func published(_ topic: String, _ payload: [UInt8], retain: Bool) {
        observer.published(topic, payload, retain: retain, carriesCredentials: carriesCredentials(topic))
    }

    func answered(_ command: MQTTMessage, _ response: CommandResponse, arrivedAt: ContinuousClock.Instant?, sentInProcess: Bool) {
        observer.answered(AnsweredCommand(
            topic: command.topic, payload: command.payload, response: response, duration: arrivedAt.map { .now - $0 } ?? .zero,
            sentInProcess: sentInProcess, carriesCredentials: carriesCredentials(command.topic)))
    }
}
