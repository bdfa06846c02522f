import CMosquitto

/// MQTT 5 subscription options beyond the QoS. MQTT 3.1.1 has none: there they are not sent
/// (the broker would take the extra bits as a protocol error), and the defaults apply.
public struct MQTTSubscriptionOptions: Sendable, Equatable {
    /// When the broker sends the retained messages that match a new subscription.
    public enum RetainHandling: Sendable, Equatable {
        /// At every subscribe, also on every reconnect (the MQTT default).
        case sendAtSubscribe
        /// Only when the subscription did not exist yet in the session.
        case sendIfNewSubscription
        /// Never: only messages published from now on.
        case neverSend
    }

    /// Keep the publisher's retain flag on messages forwarded live. By default a broker clears it,
    /// so a subscriber cannot tell a retained publish from a plain one unless this is set.
    public var retainAsPublished: Bool
    public var retainHandling: RetainHandling

    public init(retainAsPublished: Bool = false, retainHandling: RetainHandling = .sendAtSubscribe) {
        self.retainAsPublished = retainAsPublished
        self.retainHandling = retainHandling
    }

    /// The bits `mosquitto_subscribe_v5` takes.
    var mosquittoOptions: Int32 {
        var bits: Int32 = 0
        if retainAsPublished { bits |= Int32(MQTT_SUB_OPT_RETAIN_AS_PUBLISHED.rawValue) }
        switch retainHandling {
        case .sendAtSubscribe: bits |= Int32(MQTT_SUB_OPT_SEND_RETAIN_ALWAYS.rawValue)
        case .sendIfNewSubscription: bits |= Int32(MQTT_SUB_OPT_SEND_RETAIN_NEW.rawValue)
        case .neverSend: bits |= Int32(MQTT_SUB_OPT_SEND_RETAIN_NEVER.rawValue)
        }
        return bits
    }
}
