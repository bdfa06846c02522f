import BridgeCore

/// `recently_blocked/get`'s question: which domains were blocked in the last `minutes`, for one
/// client or all, at most `limit` of them. Every field is optional: `{}` or nothing asks for the
/// last 10 minutes, every client, 50 domains.
struct RecentlyBlockedRequest: Equatable, Sendable {
    var minutes = 10
    var client: String?
    var limit = 50

    /// FTL keeps 24 hours of queries in memory.
    static let minutesRange = 1...1440
    static let limitRange = 1...500
    static let usage = #"recently_blocked/get takes nothing or {"minutes":1…1440,"client":"IP"|null,"limit":1…500}"#

    static func parse(_ payload: CommandRequest.Payload) throws(CommandError) -> RecentlyBlockedRequest {
        var request = RecentlyBlockedRequest()
        switch payload {
        case .empty:
            return request
        case .text(let text):
            throw CommandError("\(usage); got '\(text.prefix(40))'")
        case .json(let json):
            guard case .object(let object) = json else { throw CommandError(usage) }
            if let unknown = object.keys.sorted().first(where: { !["minutes", "client", "limit", "transaction"].contains($0) }) {
                throw CommandError("unknown key '\(unknown.prefix(40))': \(usage)")
            }
            if let minutes = object["minutes"] { request.minutes = try whole(minutes, "minutes", in: minutesRange) }
            if let limit = object["limit"] { request.limit = try whole(limit, "limit", in: limitRange) }
            switch object["client"] {
            case nil, .null?: break
            case .string(let client)? where isClientAddress(client): request.client = client
            case let other?: throw CommandError("\"client\" must be an IP address (or null), got \(other.encodedString().prefix(60))")
            }
            return request
        }
    }

    private static func whole(_ value: JSONValue, _ key: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard case .number(let number) = value, number == number.rounded(), number >= Double(range.lowerBound),
              number <= Double(range.upperBound)
        else {
            throw CommandError("\"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(value.encodedString().prefix(40))")
        }
        return Int(number)
    }

    /// An IPv4 or IPv6 address as FTL shows clients: it goes into a query string, so nothing else
    /// (FTL would read `*` as a wildcard).
    static func isClientAddress(_ text: String) -> Bool {
        guard (2...45).contains(text.count) else { return false }
        if text.contains(":") { return text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isNumber) && Int(part).map { $0 <= 255 } == true
        }
    }
}
