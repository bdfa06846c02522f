#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Public value types for statistics, groups, the query log, sessions and maintenance actions.

/// `GET /api/stats/summary`, the figures of the last 24 hours.
public struct PiHoleSummary: Sendable, Equatable {
    public var queriesTotal: Int
    public var queriesBlocked: Int
    public var percentBlocked: Double
    public var uniqueDomains: Int
    public var forwarded: Int
    public var cached: Int
    public var clientsActive: Int
    public var clientsTotal: Int
    public var gravityDomains: Int
    /// When gravity last ran; `nil` when FTL does not know (it answers `0`).
    public var gravityLastUpdate: Date?

    public init(
        queriesTotal: Int, queriesBlocked: Int, percentBlocked: Double, uniqueDomains: Int,
        forwarded: Int, cached: Int, clientsActive: Int, clientsTotal: Int,
        gravityDomains: Int, gravityLastUpdate: Date?
    ) {
        self.queriesTotal = queriesTotal
        self.queriesBlocked = queriesBlocked
        self.percentBlocked = percentBlocked
        self.uniqueDomains = uniqueDomains
        self.forwarded = forwarded
        self.cached = cached
        self.clientsActive = clientsActive
        self.clientsTotal = clientsTotal
        self.gravityDomains = gravityDomains
        self.gravityLastUpdate = gravityLastUpdate
    }
}

/// A group of `/api/groups`.
public struct PiHoleGroup: Sendable, Equatable {
    /// Database id; 0 is the Default group.
    public var id: Int?
    public var name: String
    public var comment: String?
    public var enabled: Bool

    public var isDefault: Bool { id == 0 }

    public init(id: Int?, name: String, comment: String?, enabled: Bool) {
        self.id = id
        self.name = name
        self.comment = comment
        self.enabled = enabled
    }
}

/// One entry of FTL's query log.
public struct PiHoleQuery: Sendable, Equatable {
    public var time: Date
    public var domain: String
    /// `GRAVITY`, `FORWARDED`, …; FTL may not know it.
    public var status: String?
    public var clientIP: String
    public var clientName: String?

    public init(time: Date, domain: String, status: String?, clientIP: String, clientName: String?) {
        self.time = time
        self.domain = domain
        self.status = status
        self.clientIP = clientIP
        self.clientName = clientName
    }
}

/// One page of `/api/queries`.
public struct PiHoleQueryPage: Sendable, Equatable {
    /// Newest first, as FTL returns them.
    public var queries: [PiHoleQuery]
    /// How many matched in all (may exceed `queries.count`).
    public var recordsFiltered: Int?

    public init(queries: [PiHoleQuery], recordsFiltered: Int?) {
        self.queries = queries
        self.recordsFiltered = recordsFiltered
    }
}

/// One API session of `/api/auth/sessions`: each takes one of `webserver.api.max_sessions` seats.
public struct PiHoleSessionInfo: Sendable, Equatable {
    public var id: Int
    public var valid: Bool
    /// The session this client is using.
    public var isCurrent: Bool
    /// Logged in with an app password.
    public var isApp: Bool
    public var remoteAddress: String?
    public var userAgent: String?

    public init(id: Int, valid: Bool, isCurrent: Bool, isApp: Bool, remoteAddress: String?, userAgent: String?) {
        self.id = id
        self.valid = valid
        self.isCurrent = isCurrent
        self.isApp = isApp
        self.remoteAddress = remoteAddress
        self.userAgent = userAgent
    }
}

/// What a gravity run printed, reduced to what a person needs to judge it.
public struct PiHoleGravityResult: Sendable, Equatable {
    /// `false` when any line reports a failure (`[✗]`).
    public var succeeded: Bool
    /// The last 10 non-empty lines, ANSI codes stripped.
    public var lastLines: [String]
    /// The lines with `[✗]` (at most 20).
    public var failures: [String]
    /// Non-empty lines in all.
    public var lineCount: Int

    public init(succeeded: Bool, lastLines: [String], failures: [String], lineCount: Int) {
        self.succeeded = succeeded
        self.lastLines = lastLines
        self.failures = failures
        self.lineCount = lineCount
    }
}
