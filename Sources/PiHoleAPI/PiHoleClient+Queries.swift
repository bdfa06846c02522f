#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText
import UpstreamHTTP

extension PiHoleClient {
    /// The query statuses FTL counts as blocked (stats.yaml `status`).
    public static let blockedStatuses: Set<String> = [
        "GRAVITY", "REGEX", "DENYLIST", "EXTERNAL_BLOCKED_IP", "EXTERNAL_BLOCKED_NULL",
        "EXTERNAL_BLOCKED_NXRA", "GRAVITY_CNAME", "REGEX_CNAME", "DENYLIST_CNAME", "SPECIAL_DOMAIN",
        "EXTERNAL_BLOCKED_EDE15",
    ]

    /// The blocked queries between `from` and `until` (whole seconds, widened outwards),
    /// of `clientIP` when given, newest first, at most `limit`:
    /// `GET /api/queries?from=…&until=…&upstream=blocklist&length=…[&client_ip=…]`.
    /// Queries of other statuses are dropped too, in case a build ignores `upstream`.
    public func blockedQueries(from: Date, until: Date, clientIP: String?, limit: Int) async throws -> PiHoleQueryPage {
        guard limit > 0 else { return PiHoleQueryPage(queries: [], recordsFiltered: nil) }
        var path = "/api/queries?from=\(Int(from.timeIntervalSince1970.rounded(.down)))"
        path += "&until=\(Int(until.timeIntervalSince1970.rounded(.up)))&upstream=blocklist&length=\(limit)"
        if let clientIP { path += "&client_ip=\(clientIP.percentEncodedPathSegment)" }
        let response = try await authenticated(.GET, path, maxBodySize: AnswerSize.list)
        let body = try decodeSuccess(PiHoleWire.QueriesResponse.self, response, what: "query log")
        let blocked = body.queries.filter { $0.status.map(Self.blockedStatuses.contains) ?? false }
        return PiHoleQueryPage(
            queries: blocked.map {
                PiHoleQuery(
                    time: Date(timeIntervalSince1970: $0.time), domain: $0.domain, status: $0.status,
                    clientIP: $0.client.ip, clientName: $0.client.name)
            },
            recordsFiltered: body.recordsFiltered)
    }
}
