/// MQTT delivery guarantee of a publish or subscription.
public enum MQTTQoS: Int32, Sendable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2
}

/// The MQTT protocol revision spoken to the broker.
public enum MQTTProtocolVersion: Sendable {
    /// MQTT 5: needed for properties (response topic, correlation data, expiry, content type).
    case v5
    /// MQTT 3.1.1: for old brokers; publishing with properties throws `.invalidConfiguration`.
    case v311
}
