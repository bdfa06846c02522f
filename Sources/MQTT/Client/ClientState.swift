/// Mutable state of one client, always accessed under `ClientCore.state`'s lock.
struct ClientState: Sendable {
    var started = false
    var isConnected = false
    var hasEverConnected = false
    var reconnectCount = 0
    /// Set when a CONNACK succeeds; the network thread takes it to reset its failure count.
    var connackSucceededSinceLastCheck = false
    var lastError: String?
    /// A definitive refusal (credentials, authorization) seen before the first successful connect.
    var firstRefusal: MQTTError?
    var threadFinished = false
    var streamsFinished = false
    /// `stopReceiving()` was called: the network thread is to read nothing more.
    var receivingStopRequested = false
    /// The network thread has done its last read (or never will read again).
    var receivingStopped = false
    /// Insertion order is kept so re-subscription happens in the order the caller subscribed.
    var subscriptions: [(filter: String, qos: MQTTQoS, options: MQTTSubscriptionOptions)] = []
    /// The latest retained payload of each topic given to `MQTTClient.publishRetained`, for the
    /// next connect; an empty one is a clear not sent yet.
    var remembered: [String: [UInt8]] = [:]
    var rememberedOrder: [String] = []

    mutating func rememberSubscription(_ filter: String, qos: MQTTQoS, options: MQTTSubscriptionOptions) {
        if let index = subscriptions.firstIndex(where: { $0.filter == filter }) {
            subscriptions[index].qos = qos
            subscriptions[index].options = options
        } else {
            subscriptions.append((filter, qos, options))
        }
    }

    mutating func forgetSubscription(_ filter: String) {
        subscriptions.removeAll { $0.filter == filter }
    }

    mutating func rememberPublish(_ topic: String, _ payload: [UInt8]) {
        if remembered.updateValue(payload, forKey: topic) == nil { rememberedOrder.append(topic) }
    }

    /// Forgets `topic` if what is remembered is a clear (sent now); a payload published since stays.
    mutating func forgetClear(_ topic: String) {
        guard remembered[topic]?.isEmpty == true else { return }
        remembered[topic] = nil
        rememberedOrder.removeAll { $0 == topic }
    }

    /// What a connect sends: every remembered topic's latest payload, in order. The clears among
    /// them are forgotten, as they are sent now.
    mutating func takeRepublish() -> [(topic: String, payload: [UInt8])] {
        let all = rememberedOrder.compactMap { topic in remembered[topic].map { (topic, $0) } }
        for (topic, payload) in all where payload.isEmpty { forgetClear(topic) }
        return all
    }
}
