#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UpstreamHTTP

extension PiHoleClient {
    /// `GET /api/stats/summary`: the last 24 hours' figures and gravity's size and age.
    public func summary() async throws -> PiHoleSummary {
        let response = try await authenticated(.GET, "/api/stats/summary")
        let body = try decodeSuccess(PiHoleWire.SummaryResponse.self, response, what: "statistics summary")
        let lastUpdate = body.gravity.lastUpdate
        return PiHoleSummary(
            queriesTotal: body.queries.total, queriesBlocked: body.queries.blocked,
            percentBlocked: body.queries.percentBlocked, uniqueDomains: body.queries.uniqueDomains,
            forwarded: body.queries.forwarded, cached: body.queries.cached,
            clientsActive: body.clients.active, clientsTotal: body.clients.total,
            gravityDomains: body.gravity.domainsBeingBlocked,
            gravityLastUpdate: lastUpdate > 0 ? Date(timeIntervalSince1970: TimeInterval(lastUpdate)) : nil)
    }

    /// `GET /api/auth/sessions`: every API session, this client's included.
    public func sessions() async throws -> [PiHoleSessionInfo] {
        let response = try await authenticated(.GET, "/api/auth/sessions", maxBodySize: AnswerSize.list)
        // An entry without a whole-number id is no session FTL made, and could not be ended.
        return try decodeSuccess(PiHoleWire.SessionsResponse.self, response, what: "session list").sessions.compactMap {
            guard let id = Int(exactly: $0.id) else { return nil }
            return PiHoleSessionInfo(
                id: id, valid: $0.valid ?? false, isCurrent: $0.currentSession ?? false,
                isApp: $0.app ?? false, remoteAddress: $0.remoteAddress, userAgent: $0.userAgent)
        }
    }

    /// `GET /api/config/webserver/api/max_sessions`: how many API sessions the Pi-hole allows;
    /// `nil` when its configuration does not say.
    public func maxSessions() async throws -> Int? {
        let response = try await authenticated(.GET, "/api/config/webserver/api/max_sessions")
        let body = try decodeSuccess(PiHoleWire.MaxSessionsResponse.self, response, what: "max_sessions setting")
        return body.config.webserver?.api?.maxSessions
    }

    /// `GET /api/info/messages/count`: how many diagnosis messages the Pi-hole shows.
    public func messageCount() async throws -> Int {
        let response = try await authenticated(.GET, "/api/info/messages/count")
        return try decodeSuccess(PiHoleWire.CountResponse.self, response, what: "message count").count
    }
}
