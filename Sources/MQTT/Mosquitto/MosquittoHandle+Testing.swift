import CMosquitto
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MosquittoHandle {
    /// Shuts the TCP socket down without a DISCONNECT packet, as a crash or network failure would.
    /// `shutdown(2)` (not `close`) keeps the descriptor valid for libmosquitto, whose next read then
    /// sees end-of-file and reports a lost connection on the network thread.
    func shutdownSocketForTesting() {
        let fd = mosquitto_socket(raw)
        if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) }
    }
}
