#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether something accepts TCP connections at an address: how the demo tells "a broker is
/// already running there" from "start one". Bounded, so a host that drops packets cannot hang it.
enum TCPProbe {
    static func accepts(host: String, port: Int, timeoutSeconds: Int = 1) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else { return false }
        defer { freeaddrinfo(first) }
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate?.pointee {
            candidate = address.ai_next
            let fd = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            // On Linux the send timeout bounds connect() too.
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return true }
        }
        return false
    }
}
