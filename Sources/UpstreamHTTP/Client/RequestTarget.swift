/// An absolute `http://` or `https://` URL as a request needs it: where to connect, what to send
/// as `Host`, and the path with its query. Split by hand: the bridge's URLs are its own, made of
/// a configured base and a path, and Foundation's `URL` took 16,500 instructions a request.
struct RequestTarget: Sendable, Equatable {
    let isHTTPS: Bool
    /// Without the brackets of an IPv6 literal: what a socket takes.
    let host: String
    let port: Int
    /// `host`, or `host:port` when the port is not the scheme's own (brackets kept).
    let hostHeader: String
    /// From the first `/` on, query included; `/` when the URL has none.
    let pathAndQuery: String

    init(_ url: String) throws(UpstreamError) {
        let isHTTPS: Bool
        let rest: Substring
        if let after = Self.dropScheme("https://", from: url) {
            (isHTTPS, rest) = (true, after)
        } else if let after = Self.dropScheme("http://", from: url) {
            (isHTTPS, rest) = (false, after)
        } else {
            throw UpstreamError(.invalidURL, "not an http:// or https:// URL: '\(url)'")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let defaultPort = isHTTPS ? 443 : 80
        var host = authority
        var port = defaultPort
        // The port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            host = authority[..<colon]
            guard let parsed = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(parsed) else {
                throw UpstreamError(.invalidURL, "no valid port in '\(url)'")
            }
            port = parsed
        }
        guard !host.isEmpty, !host.contains("@") else { throw UpstreamError(.invalidURL, "no host in '\(url)'") }
        self.isHTTPS = isHTTPS
        self.host = host.first == "[" && host.last == "]" ? String(host.dropFirst().dropLast()) : String(host)
        self.port = port
        hostHeader = port == defaultPort ? String(host) : "\(host):\(port)"
        let path = rest[authorityEnd...]
        pathAndQuery = path.first == "/" ? String(path) : "/" + path
    }

    private static func dropScheme(_ scheme: String, from url: String) -> Substring? {
        guard url.utf8.count > scheme.utf8.count,
              url.utf8.prefix(scheme.utf8.count).elementsEqual(scheme.utf8, by: { $0 | 0x20 == $1 | 0x20 })
        else { return nil }
        return url.dropFirst(scheme.count)
    }
}
