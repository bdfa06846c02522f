/// The single error type of the MQTT module.
public struct MQTTError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case invalidConfiguration
        case notConnected
        /// The broker refused the connection (bad credentials, not authorized, ...).
        case connectionRefused
        case timeout
        case protocolError
        /// The client was disconnected (by `disconnect()` or a lost connection) before the operation finished.
        case disconnected
        case payloadTooLarge
        /// The broker refused a subscription (granted QoS 0x80 or higher).
        case subscriptionRefused
        /// The broker refused a QoS>0 publish (MQTT 5 PUBACK/PUBREC reason >= 0x80, e.g. ACL).
        case publishRefused
        case tls
        /// Any other libmosquitto failure.
        case library
    }

    public let code: Code
    /// Human text, including libmosquitto's `mosquitto_strerror` / CONNACK reason where there is one.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "MQTTError.\(code): \(message)" }
}
