import Hummingbird
import PlainText

/// One request as a simulator received it, for tests to read back: what was called, and what was not.
public struct RecordedRequest: Sendable {
    public let method: String
    /// Path without the query, percent-encoding kept as sent.
    public let path: String
    /// Raw query string (without `?`), if any.
    public let query: String?
    /// Header names lowercased; a repeated header's values joined with `, `.
    public let headers: [String: String]
    /// Body as UTF-8 text (empty when none).
    public let body: String
    /// When the simulator had the whole request, body included: the benchmark times a command's
    /// way to its upstream call from it (the simulators run in the benchmark's process).
    public let receivedAt: ContinuousClock.Instant

    public init(_ request: Request, body: some Sequence<UInt8>) {
        let target = request.head.path ?? "/"
        let queryStart = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName  // lowercase already (HTTPTypes)
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        method = request.method.rawValue
        path = String(target[..<(queryStart ?? target.endIndex)])
        query = queryStart.map { String(target[target.index(after: $0)...]) }
        self.headers = headers
        self.body = String(decoding: Array(body), as: UTF8.self)
        receivedAt = .now
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The path's segments between `/`s, empty ones left out, each percent-decoded (as sent when
    /// its escapes are malformed): what a simulator routes on. Split over bytes, since every
    /// request of the benchmark's hundreds of thousands does it.
    public var pathSegments: [String] {
        path.utf8.split(separator: UInt8(ascii: "/")).map { bytes in
            let segment = String(Substring(bytes))
            return segment.percentDecoded ?? segment
        }
    }
}
