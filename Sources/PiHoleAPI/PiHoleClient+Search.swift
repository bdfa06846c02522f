import PlainText
import UpstreamHTTP

extension PiHoleClient {
    /// `GET /api/search/{term}?partial=…&N=…`: the entries and gravity rows matching `term`
    /// (a domain, or with `partial` a substring), at most `limit` of each kind. The caller checks
    /// `term`: FTL searches for whatever it is sent.
    public func search(_ term: String, partial: Bool, limit: Int) async throws -> PiHoleSearchResult {
        let path = "/api/search/\(term.percentEncodedPathSegment)?partial=\(partial)&N=\(limit)"
        let response = try await authenticated(.GET, path, maxBodySize: AnswerSize.list)
        let search = try decodeSuccess(PiHoleWire.SearchResponse.self, response, what: "search result").search
        return PiHoleSearchResult(
            entries: search.domains.map {
                .init(id: $0.id, domain: $0.domain, list: $0.type, kind: $0.kind, enabled: $0.enabled, groupIDs: $0.groups)
            },
            lists: search.gravity.map {
                .init(listID: $0.id, address: $0.address, type: $0.type, domain: $0.domain, enabled: $0.enabled, groupIDs: $0.groups)
            },
            total: search.results.total)
    }
}

extension PiHoleDomainList: Decodable {}
extension PiHoleDomainKind: Decodable {}

extension PiHoleWire {
    /// `GET /api/search/{domain}` (search.yaml): what the bridge reads of it. An unknown `type`
    /// or `kind` fails the decoding: a verdict must not rest on a guess.
    struct SearchResponse: Decodable {
        struct Entry: Decodable {
            let id: Int
            let domain: String
            let type: PiHoleDomainList
            let kind: PiHoleDomainKind
            let enabled: Bool
            let groups: [Int]
        }
        struct Gravity: Decodable {
            let id: Int
            let domain: String
            let address: String
            let type: PiHoleListType
            let enabled: Bool
            let groups: [Int]
        }
        struct Results: Decodable {
            let total: Int
        }
        struct Search: Decodable {
            let domains: [Entry]
            let gravity: [Gravity]
            let results: Results
        }
        let search: Search
    }
}
