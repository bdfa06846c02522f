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
        reconnect: MQTTReconnectPolicy = .init()
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
    }
}
