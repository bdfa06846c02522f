#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// Wire bodies of statistics, groups, the query log, sessions, configuration and messages.
/// Fields the specs mark `nullable` are optional; everything the bridge shows is required,
/// so that a changed API fails loudly as `.unexpectedResponse` instead of showing zeros.
extension PiHoleWire {
    /// `GET /api/stats/summary` (stats.yaml `queries`), the parts the bridge uses.
    struct SummaryResponse: Decodable {
        struct Queries: Decodable {
            let total: Int
            let blocked: Int
            let percentBlocked: Double
            let uniqueDomains: Int
            let forwarded: Int
            let cached: Int

            enum CodingKeys: String, CodingKey {
                case total, blocked, forwarded, cached
                case percentBlocked = "percent_blocked", uniqueDomains = "unique_domains"
            }
        }
        struct Clients: Decodable {
            let active: Int
            let total: Int
        }
        struct Gravity: Decodable {
            let domainsBeingBlocked: Int
            /// Unix time; `0` when unknown.
            let lastUpdate: Int

            enum CodingKeys: String, CodingKey {
                case domainsBeingBlocked = "domains_being_blocked", lastUpdate = "last_update"
            }
        }
        let queries: Queries
        let clients: Clients
        let gravity: Gravity
    }

    /// A group as `GET`/`PUT /api/groups[/{name}]` list it.
    struct Group: Decodable {
        let name: String
        let comment: String?
        let enabled: Bool
        let id: Int?
    }

    /// `GET /api/groups[/{name}]`; a `PUT` adds `processed`.
    struct GroupsResponse: Decodable {
        let groups: [Group]
        let processed: ProcessedResponse.Processed?
    }

    /// `PUT /api/groups/{name}` replaces the whole group: a missing `comment` erases it and a
    /// missing `enabled` enables, so all three are always sent (`comment` as `null` when none).
    static func groupRequest(name: String, comment: String?, enabled: Bool) -> Data {
        Data(JSONValue.object(["name": .string(name), "comment": comment.map(JSONValue.string) ?? .null, "enabled": .bool(enabled)]).encoded())
    }

    /// `GET /api/queries` (queries.yaml), the parts the bridge uses.
    struct QueriesResponse: Decodable {
        struct Query: Decodable {
            struct Client: Decodable {
                let ip: String
                let name: String?
            }
            let time: Double
            let domain: String
            let status: String?
            let client: Client
        }
        let queries: [Query]
        let recordsFiltered: Int?
    }

    /// `GET /api/auth/sessions` (auth.yaml `sessions_list`).
    struct SessionsResponse: Decodable {
        struct Session: Decodable {
            /// A `number` in the spec: decoded as such, used as an integer.
            let id: Double
            let currentSession: Bool?
            let valid: Bool?
            let app: Bool?
            let remoteAddress: String?
            let userAgent: String?

            enum CodingKeys: String, CodingKey {
                case id, valid, app
                case currentSession = "current_session", remoteAddress = "remote_addr", userAgent = "user_agent"
            }
        }
        let sessions: [Session]
    }

    /// `GET /api/config/webserver/api/max_sessions`: the element path answers the same nesting
    /// as the whole configuration, cut down to that element.
    struct MaxSessionsResponse: Decodable {
        struct Config: Decodable {
            struct Webserver: Decodable {
                struct API: Decodable {
                    let maxSessions: Int?
                    enum CodingKeys: String, CodingKey { case maxSessions = "max_sessions" }
                }
                let api: API?
            }
            let webserver: Webserver?
        }
        let config: Config
    }

    /// `GET /api/info/messages/count`.
    struct CountResponse: Decodable {
        let count: Int
    }
}

extension PiHoleWire {
    /// The answer of an action (common.yaml `success`): `{"status":"success"}`.
    struct StatusResponse: Decodable {
        let status: String?
    }
}
