#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LoopbackSocket

/// Loopback TCP helpers for `TestBroker` and for tests that need a free port of their own.
public enum LoopbackPort {
    /// Asks the kernel for a free port by binding 127.0.0.1:0, then closes the socket.
    /// Another process could take the port before the broker binds it; `TestBroker` retries then.
    public static func free() throws -> Int {
        try BoundLoopbackSocket().port
    }

    /// A port where every connection is refused for as long as `body` runs: bound, never
    /// listening. A port that a stopped broker freed is no such thing: another test's broker
    /// can take it meanwhile.
    public static func withRefusing<T>(_ body: (Int) async throws -> T) async throws -> T {
        let socket = try BoundLoopbackSocket()
        defer { withExtendedLifetime(socket) {} }
        return try await body(socket.port)
    }

    /// A free port, held for as long as `body` runs: bound, not listening, the address reusable.
    /// A listener that reuses the address too (mosquitto, the bridge's health endpoint, NIO's
    /// servers) binds it beside the hold; nothing else takes it between its choice and that bind.
    public static func withHeld<T>(_ body: (Int) async throws -> T) async throws -> T {
        let socket = try BoundLoopbackSocket(reuseAddress: true)
        defer { withExtendedLifetime(socket) {} }
        return try await body(socket.port)
    }

    /// True if something accepts TCP connections on 127.0.0.1:`port`.
    public static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in.loopback(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return rc == 0
    }
}
