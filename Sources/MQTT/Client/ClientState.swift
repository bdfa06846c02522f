/// A publish to repeat after every reconnect (see `MQTTClient.publish(republishOnReconnect:)`).
struct RememberedPublish: Sendable {
    var payload: [UInt8]
    var qos: MQTTQoS
    var retain: Bool
    var properties: MQTTProperties
}

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
    var remembered: [String: RememberedPublish] = [:]
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

    mutating func rememberPublish(_ topic: String, _ publish: RememberedPublish) {
        if remembered.updateValue(publish, forKey: topic) == nil { rememberedOrder.append(topic) }
    }

    mutating func forgetPublish(_ topic: String) {
        if remembered.removeValue(forKey: topic) != nil { rememberedOrder.removeAll { $0 == topic } }
    }
}
