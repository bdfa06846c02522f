/// A message received on a subscribed filter.
public struct MQTTMessage: Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool
    public var properties: MQTTProperties

    public init(
        topic: String,
        payload: [UInt8],
        qos: MQTTQoS = .atMostOnce,
        retain: Bool = false,
        properties: MQTTProperties = .init()
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.properties = properties
    }

    /// The payload as text, or `nil` when it is not valid UTF-8.
    public var payloadString: String? {
        String(validating: payload, as: UTF8.self)
    }
}
