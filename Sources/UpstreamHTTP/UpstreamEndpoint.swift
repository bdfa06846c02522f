#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOCore

/// Scheme, host and port of an upstream's base URL.
struct UpstreamEndpoint: Sendable, Equatable {
    let isHTTPS: Bool
    let host: String
    let port: Int

    init(url: String) throws(UpstreamError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            throw UpstreamError(.invalidURL, "not an http:// or https:// URL with a host: '\(url)'")
        }
        isHTTPS = scheme == "https"
        // URLComponents keeps the brackets of an IPv6 literal; sockets want the bare address.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (isHTTPS ? 443 : 80)
    }

    /// SNI carries names only: an IP literal there is a protocol error.
    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
