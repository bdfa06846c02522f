import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MosquittoHandle {
    /// A turn of the network loop with poll(2), which takes any descriptor: libmosquitto's
    /// read, write and housekeeping steps driven by hand (its documented "external loop").
    ///
    /// `mosquitto_loop` also wakes when another thread queues a packet (through a socket pair of
    /// its own, which the API does not expose); this poll cannot, so it waits at most 10 ms and
    /// writes whatever was queued meanwhile before it returns.
    ///
    /// `reading` false: no packet is read, so nothing the broker sends is acknowledged (see
    /// `MQTTClient.stopReceiving()`); its bytes are discarded instead.
    func pollLoop(timeoutMilliseconds: Int32, reading: Bool = true) -> Int32 {
        let socket = mosquitto_socket(raw)
        guard socket >= 0 else { return MOSQ_ERR_NO_CONN.rawValue }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        if mosquitto_want_write(raw) { descriptor.events |= Int16(POLLOUT) }
        let ready = poll(&descriptor, 1, min(timeoutMilliseconds, 10))
        if ready < 0 { return errno == EINTR ? MOSQ_ERR_SUCCESS.rawValue : MOSQ_ERR_ERRNO.rawValue }
        // Not reading, it discards every turn, whatever poll saw: just before a write that may be the DISCONNECT.
        if !reading || descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let rc = reading ? mosquitto_loop_read(raw, 1) : Self.discardReceived(socket)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return rc }
        }
        if mosquitto_want_write(raw) {
            let rc = mosquitto_loop_write(raw, 1)
            if rc != MOSQ_ERR_SUCCESS.rawValue { return rc }
        }
        return mosquitto_loop_misc(raw)
    }

    /// Reads and drops what arrived, without parsing or acknowledging a packet. Bytes left unread
    /// when libmosquitto closes the socket (right after it wrote the DISCONNECT) make the kernel
    /// send a reset, and a broker that gets it drops what it had not read yet: the last packets
    /// written, the DISCONNECT among them. The connection is ending; nothing reads it after this.
    private static func discardReceived(_ socket: Int32) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            if count == 0 { return MOSQ_ERR_CONN_LOST.rawValue }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? MOSQ_ERR_SUCCESS.rawValue : MOSQ_ERR_ERRNO.rawValue
        }
    }
}
