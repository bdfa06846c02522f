import Synchronization
import enum UpstreamHTTP.SHA256

/// The page's logins: sessions bounded in number and expiring, each with its own CSRF token,
/// and failed logins rate-limited for the whole listener (a per-address count would itself be
/// a table an attacker could grow).
public final class PageSessions: Sendable {
    public struct Session: Sendable, Equatable {
        public let token: String
        public let csrf: String
        let expiresAt: ContinuousClock.Instant
    }

    public enum Login: Sendable, Equatable {
        case session(Session)
        case refused
        /// Too many failed logins lately: refused without comparing the password.
        case tooMany
    }

    public static let maximumSessions = 32
    public static let lifetime = Duration.seconds(12 * 3600)
    /// Failed logins allowed per `failureWindow`; then every login is refused until it passes.
    public static let maximumFailures = 5
    public static let failureWindow = Duration.seconds(60)

    private let passwordDigest: [UInt8]
    private let state = Mutex(State())
    private struct State {
        var sessions: [Session] = []
        var failures: [ContinuousClock.Instant] = []
    }

    public init(password: String) {
        passwordDigest = SHA256.hash(Array(password.utf8))
    }

    public func login(password: String, now: ContinuousClock.Instant = .now) -> Login {
        state.withLock { state in
            state.failures.removeAll { now - $0 > Self.failureWindow }
            guard state.failures.count < Self.maximumFailures else { return .tooMany }
            // Digests of equal length, compared in constant time: neither the password's length
            // nor its first wrong character shows in the time taken.
            guard ConstantTime.equal(SHA256.hash(Array(password.utf8)), passwordDigest) else {
                state.failures.append(now)
                return .refused
            }
            state.sessions.removeAll { $0.expiresAt <= now }
            if state.sessions.count >= Self.maximumSessions { state.sessions.removeFirst() }
            let session = Session(token: RandomToken.make(), csrf: RandomToken.make(), expiresAt: now + Self.lifetime)
            state.sessions.append(session)
            return .session(session)
        }
    }

    /// The live session whose cookie is `token`.
    public func session(_ token: String?, now: ContinuousClock.Instant = .now) -> Session? {
        guard let token else { return nil }
        return state.withLock { state in
            state.sessions.first { ConstantTime.equal(Array($0.token.utf8), Array(token.utf8)) && $0.expiresAt > now }
        }
    }

    public func logout(_ token: String?) {
        guard let token else { return }
        state.withLock { $0.sessions.removeAll { $0.token == token } }
    }
}

enum ConstantTime {
    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

enum RandomToken {
    /// 32 random bytes in hex, from the system's generator (getrandom on Linux).
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
