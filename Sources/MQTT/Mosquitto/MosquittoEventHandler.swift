/// What the handle reports from libmosquitto's callbacks. All methods run on the network thread,
/// inside `mosquitto_loop`, so they may call back into the handle (libmosquitto allows that).
protocol MosquittoEventHandler: AnyObject, Sendable {
    func mosquittoConnected(_ handle: MosquittoHandle, reasonCode: Int32)
    func mosquittoDisconnected(_ handle: MosquittoHandle, rc: Int32)
    func mosquittoReceived(_ message: MQTTMessage)
    func mosquittoPublished(mid: Int32, reasonCode: Int32)
    func mosquittoSubscribed(mid: Int32, grantedQoS: [Int32])
    func mosquittoUnsubscribed(mid: Int32)
}

/// The object behind libmosquitto's `userdata` pointer.
///
/// `@unchecked Sendable`: `handle` is written once in `MosquittoHandle.init`, before the handle is
/// shared with any other thread, and only read afterwards (from callbacks on the network thread).
final class MosquittoCallbackContext: @unchecked Sendable {
    let handler: any MosquittoEventHandler
    /// Unowned: the handle owns this context, not the reverse. Callbacks only run inside
    /// `mosquitto_loop`, whose caller holds a strong reference to the handle, so it is alive then.
    unowned(unsafe) var handle: MosquittoHandle?

    init(handler: any MosquittoEventHandler) {
        self.handler = handler
    }
}
