/// Last will: the broker publishes it when the connection ends without a clean DISCONNECT.
public struct MQTTWill: Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = true) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}
