#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// An access token as the client keeps it, with the instants that decide its renewal.
public struct BellasReefToken: Sendable, Equatable {
    /// The JWT. Memory only; never logged (`description` hides it).
    public let accessToken: String
    /// Given by servers that support `POST /api/auth/refresh`; the real one gives none.
    public let refreshToken: String?
    /// The JWT's `exp`, when it could be read and lies in the future.
    public let expiresAt: Date?
    /// When to renew (refresh or log in again) so that no request meets an expired token.
    public let renewAt: Date?

    /// Renew this long before `exp` at most…
    static let renewalLead: TimeInterval = 60
    /// …but for short-lived tokens, with this fraction of the lifetime left: a quarter, since a
    /// request on a loaded machine can take a few hundred milliseconds to reach the controller,
    /// and one that arrives after `exp` is refused (a tenth of a 3 s token was 0.3 s: too close).
    static let renewalLeadFraction = 0.25
    /// An `exp` closer than this (a clock skew between client and controller) is ignored:
    /// trusting it would renew before every request. A 401 still heals such a token.
    static let minimumUsableLifetime: TimeInterval = 1

    /// A token as received at `now`; its renewal is planned from the JWT's `exp`.
    public init(accessToken: String, refreshToken: String?, receivedAt now: Date) {
        guard let exp = JWTPayload.expiry(of: accessToken), exp.timeIntervalSince(now) >= Self.minimumUsableLifetime
        else {
            self.init(accessToken: accessToken, refreshToken: refreshToken, expiresAt: nil, renewAt: nil)
            return
        }
        let lead = min(Self.renewalLead, exp.timeIntervalSince(now) * Self.renewalLeadFraction)
        self.init(
            accessToken: accessToken, refreshToken: refreshToken, expiresAt: exp,
            renewAt: exp.addingTimeInterval(-lead))
    }

    init(accessToken: String, refreshToken: String?, expiresAt: Date?, renewAt: Date?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.renewAt = renewAt
    }

    func isExpired(at now: Date) -> Bool {
        guard let expiresAt else { return false }
        return now >= expiresAt
    }

    func needsRenewal(at now: Date) -> Bool {
        guard let renewAt else { return false }
        return now >= renewAt
    }
}

extension BellasReefToken: CustomStringConvertible {
    public var description: String {
        "BellasReefToken(<redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"))"
    }
}

/// Reads a JWT's payload without checking its signature: the client only needs `exp` to
/// plan its renewal; the controller is the one that checks the token.
enum JWTPayload {
    /// `exp` (seconds since 1970) of a `header.payload.signature` token, or `nil`.
    static func expiry(of token: String) -> Date? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = base64URLDecoded(String(parts[1])),
            let claims = JSONValue.decode(Claims.self, from: data), let exp = claims.exp
        else { return nil }
        return Date(timeIntervalSince1970: exp)
    }

    struct Claims: Decodable {
        let exp: Double?
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
