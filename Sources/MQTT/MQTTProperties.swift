/// The MQTT 5 publish properties this module supports. All `nil` means "no properties".
public struct MQTTProperties: Sendable, Equatable {
    public var responseTopic: String?
    public var correlationData: [UInt8]?
    /// Seconds. On delivery the broker sends the *remaining* lifetime, so a subscriber may see less.
    public var messageExpiryInterval: UInt32?
    public var contentType: String?

    public init(
        responseTopic: String? = nil,
        correlationData: [UInt8]? = nil,
        messageExpiryInterval: UInt32? = nil,
        contentType: String? = nil
    ) {
        self.responseTopic = responseTopic
        self.correlationData = correlationData
        self.messageExpiryInterval = messageExpiryInterval
        self.contentType = contentType
    }

    /// True when no property is set.
    public var isEmpty: Bool {
        responseTopic == nil && correlationData == nil && messageExpiryInterval == nil && contentType == nil
    }
}
