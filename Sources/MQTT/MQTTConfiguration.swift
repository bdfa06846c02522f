/// Everything needed to reach a broker. Validated by `MQTTClient.init`.
public struct MQTTConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var clientID: String
    public var username: String?
    public var password: String?
    public var tls: MQTTTLS?
    /// Seconds; 0 disables keep-alive, otherwise at least 5 (libmosquitto's minimum).
    public var keepAlive: Int
    public var protocolVersion: MQTTProtocolVersion
    public var will: MQTTWill?
    public var reconnect: MQTTReconnectPolicy
    /// Seconds the broker keeps this client's session after a disconnect. `nil`: a clean session
    /// at every connect, and whatever is sent while the client is away never reaches it. A value:
    /// clean start off, so the broker keeps the subscriptions and queues QoS 1 and 2 messages for
    /// that long (MQTT 5's Session Expiry Interval; MQTT 3.1.1 has no interval: there the broker's
    /// own setting, `persistent_client_expiration` in mosquitto, decides), and they are delivered
    /// on the reconnect. A broker keeps sessions across its own restart only with persistence on.
    public var sessionExpiry: UInt32?

    public init(
        clientID: String,
        host: String = "127.0.0.1",
        port: Int = 1883,
        username: String? = nil,
        password: String? = nil,
        tls: MQTTTLS? = nil,
        keepAlive: Int = 30,
        protocolVersion: MQTTProtocolVersion = .v5,
        will: MQTTWill? = nil,
        reconnect: MQTTReconnectPolicy = .init(),
        sessionExpiry: UInt32? = nil
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
        self.tls = tls
        self.keepAlive = keepAlive
        self.protocolVersion = protocolVersion
        self.will = will
        self.reconnect = reconnect
        self.sessionExpiry = sessionExpiry
    }
}
