import CMosquitto

/// Installs the MQTT 5 callbacks. Each is a C function pointer (no captures) that recovers the
/// context from `userdata` without touching its retain count (see `MosquittoHandle.init`).
extension MosquittoHandle {
    private static func context(_ userdata: UnsafeMutableRawPointer?) -> MosquittoCallbackContext? {
        guard let userdata else { return nil }
        return Unmanaged<MosquittoCallbackContext>.fromOpaque(userdata).takeUnretainedValue()
    }

    func installCallbacks() {
        mosquitto_connect_v5_callback_set(raw) { _, userdata, reasonCode, _, _ in
            guard let context = MosquittoHandle.context(userdata), let handle = context.handle else { return }
            context.handler.mosquittoConnected(handle, reasonCode: reasonCode)
        }
        mosquitto_disconnect_v5_callback_set(raw) { _, userdata, rc, _ in
            guard let context = MosquittoHandle.context(userdata), let handle = context.handle else { return }
            context.handler.mosquittoDisconnected(handle, rc: rc)
        }
        mosquitto_message_v5_callback_set(raw) { _, userdata, message, properties in
            guard let context = MosquittoHandle.context(userdata), let message else { return }
            let raw = message.pointee
            let payload: [UInt8] =
                if let bytes = raw.payload, raw.payloadlen > 0 {
                    Array(UnsafeRawBufferPointer(start: bytes, count: Int(raw.payloadlen)))
                } else {
                    []
                }
            let received = MQTTMessage(
                topic: raw.topic.map { String(cString: $0) } ?? "",
                payload: payload,
                qos: MQTTQoS(rawValue: raw.qos) ?? .atMostOnce,
                retain: raw.retain,
                properties: MosquittoProperties.read(properties)
            )
            context.handler.mosquittoReceived(received)
        }
        mosquitto_publish_v5_callback_set(raw) { _, userdata, mid, reasonCode, _ in
            MosquittoHandle.context(userdata)?.handler.mosquittoPublished(mid: mid, reasonCode: reasonCode)
        }
        mosquitto_subscribe_v5_callback_set(raw) { _, userdata, mid, count, granted, _ in
            guard let context = MosquittoHandle.context(userdata) else { return }
            let grantedQoS: [Int32] =
                if let granted, count > 0 { Array(UnsafeBufferPointer(start: granted, count: Int(count))) } else { [] }
            context.handler.mosquittoSubscribed(mid: mid, grantedQoS: grantedQoS)
        }
        mosquitto_unsubscribe_v5_callback_set(raw) { _, userdata, mid, _ in
            MosquittoHandle.context(userdata)?.handler.mosquittoUnsubscribed(mid: mid)
        }
    }
}
