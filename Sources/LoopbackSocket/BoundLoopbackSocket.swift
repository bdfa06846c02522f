#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP socket bound to 127.0.0.1 and never listening. Connections to its port are refused, as
/// to a port nobody holds, but no other socket takes the port while it is open: the kernel gives
/// a bound port neither to a `bind` to port 0 nor to an outgoing connection. With
/// `reuseAddress`, a listener that also sets `SO_REUSEADDR` may still bind the port and listen
/// on it meanwhile. Closed when released.
public final class BoundLoopbackSocket: Sendable {
    public let port: Int
    private let descriptor: Int32

    /// Binds 127.0.0.1:`port`; 0 lets the kernel pick a free port.
    public init(port: Int = 0, reuseAddress: Bool = false) throws(LoopbackSocketError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw LoopbackSocketError("socket() failed: errno \(errno)") }
        var one: Int32 = 1
        var address = sockaddr_in.loopback(port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let reusing = !reuseAddress || setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
        let bound = reusing && withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        } == 0
        let named = bound && withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        } == 0
        guard named else {
            let failure = errno
            close(descriptor)
            throw LoopbackSocketError("binding 127.0.0.1:\(port) failed: errno \(failure)")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}

public struct LoopbackSocketError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
