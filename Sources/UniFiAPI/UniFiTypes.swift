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
struct UniFiPage: Sendable, Decodable {
    let offset: Int
    let limit: Int
    let count: Int
    let totalCount: Int
    let data: [JSONValue]
}
