import JSONDocument

/// `GET /v1/info`.
public struct UniFiInfo: Sendable, Equatable, Decodable {
    public let applicationVersion: String
}

/// One entry of `GET /v1/sites`.
public struct UniFiSite: Sendable, Equatable, Decodable, CustomStringConvertible {
    public let id: String
    public let internalReference: String
    public let name: String

    public var description: String { "'\(name)' (reference \(internalReference), id \(id))" }
}

/// One page of a collection: `{"offset","limit","count","totalCount","data":[…]}`.
///
/// Read from the parsed JSON itself, not decoded: its items stay `JSONValue`, which a `Decodable`
/// would rebuild through a container per value (most of a large refresh's time).
struct UniFiPage: Sendable {
    let offset: Int
    let limit: Int
    let count: Int
    let totalCount: Int
    let data: [JSONValue]

    /// `nil` unless every field is there: whole numbers, and an array of items.
    init?(_ json: JSONValue) {
        func whole(_ key: String) -> Int? { json[key]?.numberValue.flatMap { Int(exactly: $0) } }
        guard let offset = whole("offset"), let limit = whole("limit"), let count = whole("count"),
              let totalCount = whole("totalCount"), let data = json["data"]?.arrayValue
        else { return nil }
        (self.offset, self.limit, self.count, self.totalCount, self.data) = (offset, limit, count, totalCount, data)
    }
}
