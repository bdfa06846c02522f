/// An absolute `http://` or `https://` URL as a request needs it: where to connect, what to send
/// as `Host`, and the path with its query. Split by hand: the bridge's URLs are its own, made of
/// a configured base and a path, and Foundation's `URL` is a general parser paid on every request.
struct RequestTarget: Sendable, Equatable {
    let isHTTPS: Bool
    /// Without the brackets of an IPv6 literal: what a socket takes.
    let host: String
    let port: Int
    /// `host`, or `host:port` when the port is not the scheme's own (brackets kept).
    let hostHeader: String
    /// From the first `/` on, query included; `/` when the URL has none.
    let pathAndQuery: String

    // Read over the UTF-8 bytes: every delimiter is ASCII, and every request pays for the split,
    // which walking the URL by `Character` (grapheme clusters) made dear.
    init(_ url: String) throws(UpstreamError) {
        let isHTTPS: Bool
        let restStart: String.Index
        if let after = Self.index(after: "https://", in: url) {
            (isHTTPS, restStart) = (true, after)
        } else if let after = Self.index(after: "http://", in: url) {
            (isHTTPS, restStart) = (false, after)
        } else {
            throw UpstreamError(.invalidURL, "not an http:// or https:// URL: '\(url)'")
        }
        let bytes = url.utf8
        let authorityEnd = bytes[restStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.endIndex
        let authority = bytes[restStart..<authorityEnd]
        let defaultPort = isHTTPS ? 443 : 80
        var hostEnd = authorityEnd
        var port = defaultPort
        // The port follows the last colon, unless that colon is inside an IPv6 literal's brackets.
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")), !authority[colon...].contains(UInt8(ascii: "]")) {
            hostEnd = colon
            guard let parsed = Int(Substring(authority[bytes.index(after: colon)...])), (1...65_535).contains(parsed) else {
                throw UpstreamError(.invalidURL, "no valid port in '\(url)'")
            }
            port = parsed
        }
        let host = bytes[restStart..<hostEnd]
        guard !host.isEmpty, !host.contains(UInt8(ascii: "@")) else { throw UpstreamError(.invalidURL, "no host in '\(url)'") }
        self.isHTTPS = isHTTPS
        let isBracketed = host.first == UInt8(ascii: "[") && host.last == UInt8(ascii: "]")
        self.host = String(Substring(isBracketed ? host.dropFirst().dropLast() : host))
        self.port = port
        hostHeader = port == defaultPort ? String(Substring(host)) : "\(Substring(host)):\(port)"
        let path = Substring(bytes[authorityEnd...])
        pathAndQuery = path.utf8.first == UInt8(ascii: "/") ? String(path) : "/" + path
    }

    /// Where the URL goes on after `scheme` (any letter case), or nil when it does not start so.
    private static func index(after scheme: StaticString, in url: String) -> String.Index? {
        let schemeBytes = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
        guard url.utf8.count > schemeBytes.count,
              url.utf8.prefix(schemeBytes.count).elementsEqual(schemeBytes, by: { $0 | 0x20 == $1 | 0x20 })
        else { return nil }
        return url.utf8.index(url.utf8.startIndex, offsetBy: schemeBytes.count)
    }
}
