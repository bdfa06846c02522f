/// Connection state changes, in the order the network thread saw them.
public enum MQTTConnectionEvent: Sendable, Equatable {
    /// The broker accepted the connection (CONNACK success). `reconnect` is false only the first time.
    case connected(reconnect: Bool)
    /// The connection ended; `reason` is libmosquitto's text for it.
    case disconnected(reason: String)
}
