import CMosquitto

/// Process-wide libmosquitto state and the translation of its return codes.
enum MosquittoLibrary {
    /// `mosquitto_lib_init` must run exactly once per process; a global `let` is initialised once,
    /// thread-safely, on first use. `mosquitto_lib_cleanup` is never called: the library lives as long
    /// as the process.
    private static let initialized: Bool = {
        mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue
    }()

    static func ensureInitialized() {
        _ = initialized
    }

    static var versionString: String {
        var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
        mosquitto_lib_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }

    /// `mosquitto_strerror` text for a MOSQ_ERR_* value.
    static func errorText(_ rc: Int32) -> String {
        String(cString: mosquitto_strerror(rc))
    }

    /// Text of a CONNACK reason: MQTT 5 reason codes and MQTT 3.1.1 return codes differ.
    static func connackText(_ code: Int32, protocolVersion: MQTTProtocolVersion) -> String {
        switch protocolVersion {
        case .v5: String(cString: mosquitto_reason_string(code))
        case .v311: String(cString: mosquitto_connack_string(code))
        }
    }

    /// A refusal that retrying will not fix (credentials, authorization, banned, client id).
    static func isDefinitiveRefusal(_ code: Int32, protocolVersion: MQTTProtocolVersion) -> Bool {
        switch protocolVersion {
        case .v5:
            // 0x85 client id not valid, 0x86 bad user name or password, 0x87 not authorized,
            // 0x8A banned, 0x8C bad authentication method.
            [0x85, 0x86, 0x87, 0x8A, 0x8C].contains(code)
        case .v311:
            // 2 identifier rejected, 4 bad user name or password, 5 not authorized.
            [2, 4, 5].contains(code)
        }
    }

    /// Turns a failing MOSQ_ERR_* return code into the module's error.
    static func error(_ rc: Int32, _ context: String) -> MQTTError {
        let code: MQTTError.Code
        switch rc {
        case MOSQ_ERR_NO_CONN.rawValue: code = .notConnected
        case MOSQ_ERR_CONN_REFUSED.rawValue, MOSQ_ERR_AUTH.rawValue: code = .connectionRefused
        case MOSQ_ERR_CONN_LOST.rawValue: code = .disconnected
        case MOSQ_ERR_PAYLOAD_SIZE.rawValue, MOSQ_ERR_OVERSIZE_PACKET.rawValue: code = .payloadTooLarge
        case MOSQ_ERR_INVAL.rawValue, MOSQ_ERR_MALFORMED_UTF8.rawValue, MOSQ_ERR_NOT_SUPPORTED.rawValue,
            MOSQ_ERR_QOS_NOT_SUPPORTED.rawValue:
            code = .invalidConfiguration
        case MOSQ_ERR_PROTOCOL.rawValue, MOSQ_ERR_MALFORMED_PACKET.rawValue, MOSQ_ERR_DUPLICATE_PROPERTY.rawValue:
            code = .protocolError
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue: code = .tls
        case MOSQ_ERR_TIMEOUT.rawValue: code = .timeout
        default: code = .library
        }
        return MQTTError(code, "\(context): \(errorText(rc)) (rc \(rc))")
    }

    /// Throws unless `rc` is MOSQ_ERR_SUCCESS.
    static func check(_ rc: Int32, _ context: @autoclosure () -> String) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw error(rc, context()) }
    }

    static let success = MOSQ_ERR_SUCCESS.rawValue
    static let noConnection = MOSQ_ERR_NO_CONN.rawValue
}
