import Hummingbird

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
        let queryStart = target.firstIndex(of: "?")
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName.lowercased()
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
}
