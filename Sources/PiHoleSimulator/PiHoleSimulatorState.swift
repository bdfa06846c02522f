import SimulatorSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Blocking state as the simulator keeps it (the API reports it as a string).
public enum PiHoleBlockingState: String, Sendable, Equatable {
    case enabled, disabled
}

extension PiHoleSimulator {
    public typealias RecordedRequest = SimulatorSupport.RecordedRequest

    /// Faults to inject.
    public enum Fault: Sendable, Equatable {
        /// Every response is delayed by this much.
        case delay(Duration)
        /// Every request is answered 500 with an `internal_error` body.
        case serverError
        /// Every connection is closed without a response.
        case dropConnections
        /// The next logins are carried out (each makes its session, as FTL does) but their
        /// connections are closed before the answer: an answer lost on the way. The fault clears
        /// itself after that many.
        case loseLoginAnswers(Int)
        /// The listener is stopped: connects are refused. Clearing the fault (or `start()`)
        /// listens again on the same port.
        case down
    }
}

/// A domain list entry.
struct SimulatedDomain: Sendable, Equatable {
    let id: Int
    let domain: String
    let list: String
    let kind: String
    let comment: String?
    let added: Date
}

/// An API session: one of `maxSessions` seats.
struct SimulatedSession: Sendable {
    /// FTL's session id is the seat's index.
    let id: Int
    let loginAt: Date
    var lastActive: Date
    var expiry: Date
    /// Logged in with an app password.
    let isApp: Bool
    let remoteAddress: String
    let userAgent: String?
}

/// Everything the simulator remembers, behind one lock.
struct SimulatorState: Sendable {
    var password: String
    let hostName: String
    let version: String
    let maxSessions: Int

    var sessions: [String: SimulatedSession] = [:]
    var loginAttempts: [Date] = []
    var loginCount = 0

    /// As a Pi-hole whose FTL does not know core's and web's versions: those answer `null`.
    var onlyFTLVersionKnown = false
    /// Two-factor authentication: the web password then needs a TOTP code; an app password does not.
    var appPasswordWithTwoFactor: String?

    var blockingEnabled = true
    /// When set, blocking flips to the opposite state at this instant.
    var revertAt: Date?

    var domains: [SimulatedDomain] = []
    var nextDomainID = 1

    var queryLog = SimulatedQueryLog()
    var gravity = SimulatedGravity()
    var groups = SimulatedGroups()
    var clients = SimulatedClients()
    /// Diagnosis messages (`/api/info/messages/count`).
    var messageCount = 0
    /// Every component's `remote.version`; `nil`: the installed one (up to date).
    var latestVersion: String?
    /// `webserver.api.allow_destructive`: off refuses restartdns and the log flush with 403.
    var allowDestructive = true
    var dnsRestarts = 0
    var logFlushes = 0

    var requests: RequestLog
    var fault: PiHoleSimulator.Fault?

    static let sessionValidity: TimeInterval = 1800

    init(password: String, hostName: String, version: String, maxSessions: Int, requests: RequestLog) {
        self.password = password
        self.hostName = hostName
        self.version = version
        self.maxSessions = maxSessions
        self.requests = requests
    }

    /// Applies an elapsed blocking timer.
    mutating func settleTimer(now: Date) {
        if let revertAt, revertAt <= now {
            blockingEnabled.toggle()
            self.revertAt = nil
        }
    }

    /// Drops expired sessions.
    mutating func pruneSessions(now: Date) {
        sessions = sessions.filter { $0.value.expiry > now }
    }

    /// A new session on the lowest free seat; `nil` when all seats are taken.
    mutating func openSession(now: Date, isApp: Bool, remoteAddress: String, userAgent: String?) -> String? {
        pruneSessions(now: now)
        guard sessions.count < maxSessions else { return nil }
        let taken = Set(sessions.values.map(\.id))
        let seat = (0..<maxSessions).first { !taken.contains($0) } ?? sessions.count
        let sid = Self.newSID()
        sessions[sid] = SimulatedSession(
            id: seat, loginAt: now, lastActive: now, expiry: now.addingTimeInterval(Self.sessionValidity),
            isApp: isApp, remoteAddress: remoteAddress, userAgent: userAgent)
        return sid
    }

    /// Whether `sid` is valid; extends it when it is.
    mutating func touch(sid: String?, now: Date) -> Bool {
        pruneSessions(now: now)
        guard let sid, sessions[sid] != nil else { return false }
        sessions[sid]?.expiry = now.addingTimeInterval(Self.sessionValidity)
        sessions[sid]?.lastActive = now
        return true
    }

    static func newSID() -> String {
        var bytes = [UInt8](repeating: 0, count: 18)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255) }
        return Data(bytes).base64EncodedString()  // 24 characters, may contain + and /
    }
}
