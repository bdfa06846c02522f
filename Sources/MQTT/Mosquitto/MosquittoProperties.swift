import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Converts between `MQTTProperties` and libmosquitto property lists.
enum MosquittoProperties {
    private static func id(_ property: mqtt5_property) -> Int32 { Int32(bitPattern: property.rawValue) }

    /// Builds a property list, passes it to `body`, and frees it afterwards (libmosquitto copies what it keeps).
    static func withList<T>(
        _ properties: MQTTProperties,
        _ body: (OpaquePointer?) throws(MQTTError) -> T
    ) throws(MQTTError) -> T {
        var list: OpaquePointer? = nil
        defer { mosquitto_property_free_all(&list) }
        if let topic = properties.responseTopic {
            try MosquittoLibrary.check(
                mosquitto_property_add_string(&list, id(MQTT_PROP_RESPONSE_TOPIC), topic), "response topic")
        }
        if let data = properties.correlationData {
            guard data.count <= Int(UInt16.max) else {
                throw MQTTError(.payloadTooLarge, "correlation data longer than 65535 bytes")
            }
            let rc = data.withUnsafeBytes { bytes in
                mosquitto_property_add_binary(&list, id(MQTT_PROP_CORRELATION_DATA), bytes.baseAddress, UInt16(data.count))
            }
            try MosquittoLibrary.check(rc, "correlation data")
        }
        if let expiry = properties.messageExpiryInterval {
            try MosquittoLibrary.check(
                mosquitto_property_add_int32(&list, id(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL), expiry), "message expiry")
        }
        if let contentType = properties.contentType {
            try MosquittoLibrary.check(
                mosquitto_property_add_string(&list, id(MQTT_PROP_CONTENT_TYPE), contentType), "content type")
        }
        return try body(list)
    }

    /// Reads the supported properties of an incoming message. The list belongs to libmosquitto;
    /// the values `mosquitto_property_read_*` hand out are malloc'd copies that we free.
    static func read(_ list: OpaquePointer?) -> MQTTProperties {
        guard let list else { return MQTTProperties() }
        var result = MQTTProperties()
        var text: UnsafeMutablePointer<CChar>? = nil
        if mosquitto_property_read_string(list, id(MQTT_PROP_RESPONSE_TOPIC), &text, false) != nil, let text {
            result.responseTopic = String(cString: text)
            free(text)
        }
        text = nil
        if mosquitto_property_read_string(list, id(MQTT_PROP_CONTENT_TYPE), &text, false) != nil, let text {
            result.contentType = String(cString: text)
            free(text)
        }
        var binary: UnsafeMutableRawPointer? = nil
        var length: UInt16 = 0
        if mosquitto_property_read_binary(list, id(MQTT_PROP_CORRELATION_DATA), &binary, &length, false) != nil {
            if let binary {
                result.correlationData = Array(UnsafeRawBufferPointer(start: binary, count: Int(length)))
                free(binary)
            } else {
                result.correlationData = []
            }
        }
        var expiry: UInt32 = 0
        if mosquitto_property_read_int32(list, id(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL), &expiry, false) != nil {
            result.messageExpiryInterval = expiry
        }
        return result
    }
}
