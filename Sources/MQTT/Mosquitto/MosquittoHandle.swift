import CMosquitto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Owns one `struct mosquitto *` and is the only place that calls libmosquitto on it.
///
/// `@unchecked Sendable`: the pointer is immutable; `mosquitto_threaded_set(true)` makes libmosquitto
/// guard its own state, so publish/subscribe/unsubscribe may be called from any thread while the
/// network thread runs connect/reconnect/loop/disconnect. Only the network thread calls those four.
final class MosquittoHandle: @unchecked Sendable {
    let raw: OpaquePointer
    let protocolVersion: MQTTProtocolVersion
    /// Retain rule: `init` passes a +1 reference of the context to libmosquitto as userdata.
    /// `deinit` calls `mosquitto_destroy` first (no callback can run after it) and then releases
    /// that +1. `deinit` only runs once the network thread has returned, because the thread holds a
    /// strong reference to this handle for as long as it calls libmosquitto.
    private let userdata: Unmanaged<MosquittoCallbackContext>

    init(
        clientID: String, protocolVersion: MQTTProtocolVersion, cleanStart: Bool, handler: any MosquittoEventHandler
    ) throws(MQTTError) {
        MosquittoLibrary.ensureInitialized()
        let context = MosquittoCallbackContext(handler: handler)
        let userdata = Unmanaged.passRetained(context)
        guard let raw = mosquitto_new(clientID, cleanStart, userdata.toOpaque()) else {
            userdata.release()
            throw MQTTError(.invalidConfiguration, "mosquitto_new failed for client id '\(clientID)': \(String(cString: strerror(errno)))")
        }
        self.raw = raw
        self.userdata = userdata
        self.protocolVersion = protocolVersion
        context.handle = self
        mosquitto_threaded_set(raw, true)
        let version = protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        _ = mosquitto_int_option(raw, MOSQ_OPT_PROTOCOL_VERSION, version)
        // Small packets go out at once: with Nagle's algorithm a packet written right after another
        // can wait for the peer's delayed ACK, some 40 ms (docs/measurements.md); commands and
        // their answers are exactly such small packets.
        _ = mosquitto_int_option(raw, MOSQ_OPT_TCP_NODELAY, 1)
        installCallbacks()
    }

    deinit {
        mosquitto_destroy(raw)
        userdata.release()
    }

    // MARK: Set-up, before the network thread starts

    func setCredentials(username: String?, password: String?) throws(MQTTError) {
        try MosquittoLibrary.check(mosquitto_username_pw_set(raw, username, password), "username/password")
    }

    func setTLS(_ tls: MQTTTLS) throws(MQTTError) {
        if tls.caFile == nil && tls.caPath == nil {
            try MosquittoLibrary.check(
                mosquitto_int_option(raw, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "TLS: use the system CA store")
        }
        try MosquittoLibrary.check(
            mosquitto_tls_set(raw, tls.caFile, tls.caPath, tls.certFile, tls.keyFile, nil), "TLS set-up")
        if !tls.verifyCertificate {
            try MosquittoLibrary.check(mosquitto_tls_insecure_set(raw, true), "TLS insecure mode")
        }
    }

    func setWill(_ will: MQTTWill) throws(MQTTError) {
        let rc = will.payload.withUnsafeBytes { bytes in
            mosquitto_will_set_v5(raw, will.topic, Int32(will.payload.count), bytes.baseAddress, will.qos.rawValue, will.retain, nil)
        }
        try MosquittoLibrary.check(rc, "last will on '\(will.topic)'")
    }

    // MARK: Network thread only

    /// Connects; with `sessionExpiry` (MQTT 5) the CONNECT carries a Session Expiry Interval,
    /// which libmosquitto keeps (a copy) and sends again at every reconnect.
    func connect(host: String, port: Int, keepAlive: Int, sessionExpiry: UInt32?) -> Int32 {
        guard let sessionExpiry, protocolVersion == .v5 else {
            return mosquitto_connect_bind_v5(raw, host, Int32(port), Int32(keepAlive), nil, nil)
        }
        var list: OpaquePointer? = nil
        defer { mosquitto_property_free_all(&list) }
        let rc = mosquitto_property_add_int32(&list, Int32(bitPattern: MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), sessionExpiry)
        guard rc == MosquittoLibrary.success else { return rc }
        return mosquitto_connect_bind_v5(raw, host, Int32(port), Int32(keepAlive), nil, list)
    }

    func reconnect() -> Int32 { mosquitto_reconnect(raw) }

    /// One turn of the network loop. `mosquitto_loop` waits with select(2), which cannot watch a
    /// descriptor numbered 1024 (FD_SETSIZE) or above: it refuses with MOSQ_ERR_INVAL, every turn,
    /// and a connection made there never sends its CONNECT. A process with many descriptors open
    /// (the test suite running in parallel was one) gets there: then `pollLoop` does the turn.
    func loop(timeoutMilliseconds: Int32) -> Int32 {
        let rc = mosquitto_loop(raw, timeoutMilliseconds, 1)
        guard rc == MOSQ_ERR_INVAL.rawValue else { return rc }
        return pollLoop(timeoutMilliseconds: timeoutMilliseconds)
    }

    func disconnect() -> Int32 { mosquitto_disconnect(raw) }

    // MARK: Any thread

    /// Queues a PUBLISH; returns its message id.
    func publish(
        topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool, properties: MQTTProperties
    ) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        let send: (OpaquePointer?) -> Int32 = { list in
            payload.withUnsafeBytes { bytes in
                mosquitto_publish_v5(self.raw, &mid, topic, Int32(payload.count), bytes.baseAddress, qos.rawValue, retain, list)
            }
        }
        let rc: Int32
        if properties.isEmpty || protocolVersion == .v311 {
            rc = send(nil)
        } else {
            rc = try MosquittoProperties.withList(properties) { list in send(list) }
        }
        try MosquittoLibrary.check(rc, "publish to '\(topic)'")
        return mid
    }

    func subscribe(_ filter: String, qos: MQTTQoS, options: MQTTSubscriptionOptions) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        let optionBits = protocolVersion == .v5 ? options.mosquittoOptions : 0
        try MosquittoLibrary.check(
            mosquitto_subscribe_v5(raw, &mid, filter, qos.rawValue, optionBits, nil), "subscribe to '\(filter)'")
        return mid
    }

    func unsubscribe(_ filter: String) throws(MQTTError) -> Int32 {
        var mid: Int32 = 0
        try MosquittoLibrary.check(mosquitto_unsubscribe_v5(raw, &mid, filter, nil), "unsubscribe from '\(filter)'")
        return mid
    }
}
