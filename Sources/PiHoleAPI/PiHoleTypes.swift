import UpstreamHTTP

/// Public value types of the Pi-hole v6 client.

/// The DNS blocking state as reported by `GET /api/dns/blocking`.
///
/// A real FTL v6 reports this as a *string*, not a boolean.
public enum PiHoleBlocking: String, Sendable, Codable, Equatable {
    case enabled, disabled, failed, unknown
}

/// Blocking state plus the seconds left until a temporary change reverts.
public struct PiHoleBlockingStatus: Sendable, Equatable {
    public var blocking: PiHoleBlocking
    /// Seconds left until the Pi-hole reverts a temporary change; `nil` when permanent.
    public var timer: Double?

    public init(blocking: PiHoleBlocking, timer: Double?) {
        self.blocking = blocking
        self.timer = timer
    }
}

/// Which domain list: `allow` (whitelist) or `deny` (blacklist).
public enum PiHoleDomainList: String, Sendable, CaseIterable {
    case allow, deny
}

/// Whether a domain entry is an exact domain or a regular expression.
public enum PiHoleDomainKind: String, Sendable, CaseIterable {
    case exact, regex
}

/// How to reach a Pi-hole.
public struct PiHoleConnection: Sendable {
    /// Scheme, host and optional port, e.g. `"http://127.0.0.1:8080"` or `"https://pi.hole"`.
    /// The client appends `/api/...`; a trailing slash is ignored.
    public var baseURL: String
    /// The web interface / app password. Kept in memory only; never logged.
    public var password: String
    /// How an `https://` Pi-hole's certificate is trusted (v6 serves a self-signed one by default).
    public var tls: UpstreamTLS
    /// Deadline for one HTTP request (connect + response).
    public var requestTimeout: Duration

    public init(
        baseURL: String,
        password: String,
        tls: UpstreamTLS = .system,
        requestTimeout: Duration = .seconds(10)
    ) {
        self.baseURL = baseURL
        self.password = password
        self.tls = tls
        self.requestTimeout = requestTimeout
    }

    /// `baseURL` without trailing slashes.
    var normalizedBaseURL: String {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

extension PiHoleConnection: CustomStringConvertible {
    /// Describes the connection without the password.
    public var description: String {
        "PiHoleConnection(baseURL: \(baseURL), password: <redacted>, tls: \(tls))"
    }
}

/// What `GET /api/info/version` knows; every version may be unknown (`nil`).
public struct PiHoleVersions: Sendable, Equatable {
    public struct Component: Sendable, Equatable {
        public var installed: String?
        public var latest: String?

        public init(installed: String?, latest: String?) {
            self.installed = installed
            self.latest = latest
        }
    }

    public var core: Component
    public var web: Component
    public var ftl: Component

    public init(core: Component, web: Component, ftl: Component) {
        self.core = core
        self.web = web
        self.ftl = ftl
    }

    /// The one version a person asks for: core's, or FTL's (so marked) when core's is unknown.
    public var summary: String? {
        core.installed ?? ftl.installed.map { "FTL \($0)" }
    }
}
