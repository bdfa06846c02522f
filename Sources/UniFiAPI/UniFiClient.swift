import JSONDocument
import Logging
import PlainText
import UpstreamHTTP

/// Client for UniFi Network's Integration API (`/proxy/network/integration/v1/…`, `X-API-KEY`).
/// Stateless apart from its `UpstreamHTTPClient`: every method throws ``UniFiError``.
public struct UniFiClient: Sendable {
    let connection: UniFiConnection
    let httpClient: UpstreamHTTPClient
    let logger: Logger

    /// Page size: the largest the API allows.
    static let pageLimit = 200
    /// 20,000 items: far more rules or sites than a home has, and a bound on a console that never
    /// says it is done.
    static let maxPages = 100

    public init(connection: UniFiConnection, httpClient: UpstreamHTTPClient, logger: Logger) {
        self.connection = connection
        self.httpClient = httpClient
        self.logger = logger
    }

    /// `GET /v1/info`.
    public func info() async throws -> UniFiInfo {
        try decode(UniFiInfo.self, try await send(.GET, "/v1/info"), what: "application info")
    }

    /// Every site (`GET /v1/sites`, all pages).
    public func sites() async throws -> [UniFiSite] {
        try await allPages("/v1/sites", filter: nil, what: "sites").map { value throws(UniFiError) in
            guard let id = value["id"]?.stringValue, let name = value["name"]?.stringValue else {
                throw UniFiError(.unexpectedResponse, "a site without id or name: \(value.encodedString())")
            }
            return UniFiSite(id: id, internalReference: value["internalReference"]?.stringValue ?? "", name: name)
        }
    }

    /// The site `nameOrReferenceOrID` means; `nil` picks the only one (several: an error listing them).
    public func resolveSite(_ nameOrReferenceOrID: String?) async throws -> UniFiSite {
        try UniFiSiteSelection.choose(nameOrReferenceOrID, from: try await sites())
    }

    public func aclRules(site: String, filter: UniFiFilter? = nil) async throws -> [UniFiRule] {
        try await rules(.acl, site: site, filter: filter)
    }

    /// Firewall policies; `filter` may name only `id`, `name`, `source.zoneId`,
    /// `destination.zoneId`, `metadata.origin` (anything else is refused without a request).
    public func firewallPolicies(site: String, filter: UniFiFilter? = nil) async throws -> [UniFiRule] {
        try await rules(.firewallPolicy, site: site, filter: filter)
    }

    /// Every rule of `kind` on `site` (a site UUID), all pages.
    public func rules(_ kind: UniFiRuleKind, site: String, filter: UniFiFilter? = nil) async throws -> [UniFiRule] {
        if let filter { try kind.check(filter) }
        return try await allPages(collectionPath(kind, site: site), filter: filter, what: "\(kind.rawValue) rules")
            .map { value throws(UniFiError) in try UniFiRule(kind: kind, raw: value) }
    }

    public func aclRule(site: String, id: String) async throws -> UniFiRule {
        try await rule(.acl, site: site, id: id)
    }

    public func firewallPolicy(site: String, id: String) async throws -> UniFiRule {
        try await rule(.firewallPolicy, site: site, id: id)
    }

    public func rule(_ kind: UniFiRuleKind, site: String, id: String) async throws -> UniFiRule {
        let response = try await send(.GET, rulePath(kind, site: site, id: id))
        return try UniFiRule(kind: kind, raw: try json(response, what: "\(kind.rawValue) rule"))
    }

    /// Switches a rule: GET it, change only `enabled` in the JSON the controller sent, PUT the
    /// whole object back (less its read-only keys), and return what the controller answers: the
    /// PUT's answer is the rule as stored (spec 10.5.66: `200` with the ACL rule or firewall
    /// policy), so no GET follows it (a third HTTPS round trip per command). A
    /// `DERIVED` or `SYSTEM_DEFINED` rule is refused before any PUT.
    public func setEnabled(kind: UniFiRuleKind, site: String, id: String, enabled: Bool) async throws -> UniFiRule {
        let current = try await rule(kind, site: site, id: id)
        let body = try UniFiRuleUpdate.body(for: current, enabled: enabled)
        let answer = try json(try await send(.PUT, rulePath(kind, site: site, id: id), body: body), what: "\(kind.rawValue) update")
        return try UniFiRule(kind: kind, raw: answer)
    }

    // MARK: - Paths and pages

    func collectionPath(_ kind: UniFiRuleKind, site: String) -> String {
        "/v1/sites/\(site.percentEncodedPathSegment)\(kind.collectionPath)"
    }

    func rulePath(_ kind: UniFiRuleKind, site: String, id: String) -> String {
        collectionPath(kind, site: site) + "/" + id.percentEncodedPathSegment
    }

    /// Reads pages of `pageLimit` until one is empty or the items reach `totalCount`.
    ///
    /// The list may change while it is read: a rule made on the console sorts first and shifts
    /// every later page, so an item can come twice (the later copy is kept, once) and another can
    /// be missed until the next read. The offsets are the client's own, and an answer for another
    /// offset than asked, or more than `maxPages` pages, is an error rather than a loop.
    func allPages(_ path: String, filter: UniFiFilter?, what: String) async throws -> [JSONValue] {
        try await pages(path, filter: filter, what: what).items
    }

    /// ``allPages(_:filter:what:)`` that stops after the page that brings the items to
    /// `maxItems`, with the console's count of them all.
    func pages(
        _ path: String, filter: UniFiFilter?, what: String, upTo maxItems: Int = .max, secretQuery: Bool = false
    ) async throws -> (items: [JSONValue], totalCount: Int) {
        var items: [JSONValue] = []
        var positionOfID: [String: Int] = [:]
        var offset = 0
        for _ in 0..<Self.maxPages {
            var query = "?offset=\(offset)&limit=\(Self.pageLimit)"
            if let filter { query += "&filter=" + filter.queryValue }
            let response = try await send(.GET, path + query, maxBodySize: AnswerSize.list, secretQuery: secretQuery)
            guard let page = UniFiPage(try json(response, what: what)) else {
                throw UniFiError.undecodable(what, status: response.status)
            }
            guard page.offset == offset else {
                throw UniFiError(
                    .unexpectedResponse, "asked for \(what) from offset \(offset), the console answered offset \(page.offset)",
                    status: response.status)
            }
            for item in page.data {
                if let id = item["id"]?.stringValue, let earlier = positionOfID[id] {
                    items[earlier] = item
                } else {
                    if let id = item["id"]?.stringValue { positionOfID[id] = items.count }
                    items.append(item)
                }
            }
            offset += page.data.count
            // Capped also when the last page passes the limit (251 to 400 of 200 a page).
            if page.data.isEmpty || offset >= page.totalCount || items.count >= maxItems {
                return (Array(items.prefix(maxItems)), page.totalCount)
            }
        }
        throw UniFiError(.unexpectedResponse, "\(what): more than \(Self.maxPages) pages of \(Self.pageLimit)")
    }
}
