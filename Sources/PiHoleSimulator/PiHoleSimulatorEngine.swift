import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A response the engine decided on, before it becomes an HTTP response.
struct SimulatedResponse: Sendable {
    var status: Int
    var body: JSONValue?
    /// Extra delay before answering (the real FTL answers rate-limited logins after 250 ms).
    var delay: Duration = .zero
    /// A body written over time instead of `body`.
    var stream: SimulatedStream?

    static func json(_ status: Int, _ body: JSONValue) -> SimulatedResponse {
        var body = body
        if case .object(var fields) = body {
            fields["took"] = .number(0.000_312)
            body = .object(fields)
        }
        return SimulatedResponse(status: status, body: body)
    }

    static func error(_ status: Int, key: String, message: String, hint: JSONValue = nil) -> SimulatedResponse {
        .json(status, ["error": ["key": .string(key), "message": .string(message), "hint": hint]])
    }

    static let noContent = SimulatedResponse(status: 204, body: nil)
    static let notFound = error(404, key: "not_found", message: "Not found")
    static let unauthorized = error(401, key: "unauthorized", message: "Unauthorized")
}

/// A body written piece by piece over time, as FTL streams gravity's output (chunked encoding).
struct SimulatedStream: Sendable {
    let contentType: String
    /// Written in order, each after `interval`.
    let chunks: [[UInt8]]
    let interval: Duration
    /// Applied under the lock once the last chunk is written, or when the client went away
    /// (a real run goes on without its listener).
    let ended: @Sendable (inout SimulatorState, Date) -> Void
}

/// The request as the engine sees it.
struct SimulatedRequest: Sendable {
    let method: String
    /// Percent-decoded path segments after the leading slash.
    let segments: [String]
    let queryItems: [String: String]
    let headers: [String: String]
    let body: Data

    var sid: String? {
        if let sid = headers["x-ftl-sid"], !sid.isEmpty { return sid }
        return queryItems["sid"]
    }
}

/// Pi-hole v6 behaviour as observed on a real FTL v6.4.1. Pure: state in, response out.
enum PiHoleSimulatorEngine {
    static func handle(_ request: SimulatedRequest, state: inout SimulatorState, now: Date) -> SimulatedResponse {
        state.settleTimer(now: now)
        let s = request.segments
        guard s.first == "api" else { return .notFound }
        let rest = Array(s.dropFirst())

        if rest == ["auth"] {
            return auth(request, state: &state, now: now)
        }

        // Find the endpoint first: unknown paths are 404 not_found whatever the SID.
        let endpoint: (inout SimulatorState) -> SimulatedResponse
        switch (request.method, rest.first) {
        case ("GET", "dns") where rest == ["dns", "blocking"]:
            endpoint = { blockingStatus(state: &$0, now: now) }
        case ("POST", "dns") where rest == ["dns", "blocking"]:
            endpoint = { setBlocking(request, state: &$0, now: now) }
        case ("GET", "info") where rest == ["info", "host"]:
            endpoint = { hostInfo(state: $0) }
        case ("GET", "info") where rest == ["info", "version"]:
            endpoint = { versionInfo(state: $0) }
        case ("GET", "info") where rest == ["info", "messages", "count"]:
            endpoint = { .json(200, ["count": .number(Double($0.messageCount))]) }
        case ("GET", "stats") where rest == ["stats", "summary"]:
            endpoint = { summary(state: $0, now: now) }
        case ("GET", "queries") where rest == ["queries"]:
            endpoint = { queries(request, state: $0) }
        case ("GET", "auth") where rest == ["auth", "sessions"]:
            endpoint = { sessionList(request, state: $0) }
        case ("DELETE", "auth") where rest.count == 3 && rest[1] == "session":
            endpoint = { deleteSession(rest[2], state: &$0) }
        case ("GET", "config"):
            endpoint = { config(path: Array(rest.dropFirst()), state: $0) }
        case (_, "groups") where rest.count <= 2:
            guard let handler = groupsEndpoint(request, name: rest.count > 1 ? rest[1] : nil, now: now) else {
                return .notFound
            }
            endpoint = handler
        case (_, "clients") where rest.count <= 2:
            guard let handler = clientsEndpoint(request, client: rest.count > 1 ? rest[1] : nil, now: now) else { return .notFound }
            endpoint = handler
        case ("POST", "action"):
            guard let handler = actionEndpoint(request, path: Array(rest.dropFirst()), now: now) else { return .notFound }
            endpoint = handler
        case (_, "domains") where rest.count <= 4:
            let path = Array(rest.dropFirst())
            guard let handler = domainsEndpoint(request, path: path, now: now) else { return .notFound }
            endpoint = handler
        default:
            return .notFound
        }

        guard state.touch(sid: request.sid, now: now) else { return .unauthorized }
        return endpoint(&state)
    }

    // MARK: - Auth

    static func sessionBody(valid: Bool, sid: String?, csrf: String?, validity: Int, message: String) -> JSONValue {
        [
            "session": [
                "valid": .bool(valid), "totp": false,
                "sid": sid.map { .string($0) } ?? .null,
                "csrf": csrf.map { .string($0) } ?? .null,
                "validity": .number(Double(validity)),
                "message": .string(message),
            ]
        ]
    }

    static func auth(_ request: SimulatedRequest, state: inout SimulatorState, now: Date) -> SimulatedResponse {
        switch request.method {
        case "POST":
            state.loginCount += 1
            state.loginAttempts = state.loginAttempts.filter { now.timeIntervalSince($0) < 1 }
            state.loginAttempts.append(now)
            if state.loginAttempts.count > 3 {
                var response = SimulatedResponse.error(
                    429, key: "rate_limiting", message: "Rate-limiting login attempts",
                    hint: "wait a moment before trying again")
                response.delay = .milliseconds(250)
                return response
            }
            guard let body = JSONValue.parse(request.body) else {
                return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
            }
            guard case .string(let password)? = body["password"] else {
                return .error(400, key: "bad_request", message: "No password found in JSON payload")
            }
            if let appPassword = state.appPasswordWithTwoFactor {
                if password == state.password {
                    return .error(400, key: "bad_request", message: "No 2FA token found in JSON payload")
                }
                if password == appPassword {
                    return newSession(request, state: &state, now: now, isApp: true)
                }
            }
            guard password == state.password else {
                return .json(401, sessionBody(valid: false, sid: nil, csrf: nil, validity: -1, message: "password incorrect"))
            }
            return newSession(request, state: &state, now: now, isApp: false)
        case "DELETE":
            state.pruneSessions(now: now)
            guard let sid = request.sid, state.sessions.removeValue(forKey: sid) != nil else {
                return .json(401, sessionBody(valid: false, sid: nil, csrf: nil, validity: -1, message: "session unknown"))
            }
            return .noContent
        case "GET":
            if state.touch(sid: request.sid, now: now), let sid = request.sid {
                return .json(
                    200,
                    sessionBody(
                        valid: true, sid: sid, csrf: nil, validity: Int(SimulatorState.sessionValidity),
                        message: "correct password"))
            }
            return .json(401, sessionBody(valid: false, sid: nil, csrf: nil, validity: -1, message: "session unknown"))
        default:
            return .notFound
        }
    }

    // MARK: - DNS blocking

    static func newSession(
        _ request: SimulatedRequest, state: inout SimulatorState, now: Date, isApp: Bool
    ) -> SimulatedResponse {
        guard
            let sid = state.openSession(
                now: now, isApp: isApp, remoteAddress: "127.0.0.1", userAgent: request.headers["user-agent"])
        else {
            return .error(
                429, key: "api_seats_exceeded", message: "API seats exceeded",
                hint: "increase webserver.api.max_sessions")
        }
        return .json(
            200,
            sessionBody(
                valid: true, sid: sid, csrf: SimulatorState.newSID(),
                validity: Int(SimulatorState.sessionValidity), message: "password correct"))
    }

    static func blockingStatus(state: inout SimulatorState, now: Date) -> SimulatedResponse {
        let timer: JSONValue = state.revertAt.map { .number($0.timeIntervalSince(now)) } ?? .null
        return .json(200, ["blocking": .string(state.blockingEnabled ? "enabled" : "disabled"), "timer": timer])
    }

    static func setBlocking(_ request: SimulatedRequest, state: inout SimulatorState, now: Date) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body) else {
            return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
        }
        guard case .bool(let enabled)? = body["blocking"] else {
            return .error(400, key: "body_error", message: "No \"blocking\" boolean in body data")
        }
        state.blockingEnabled = enabled
        if case .number(let seconds)? = body["timer"], seconds > 0 {
            state.revertAt = now.addingTimeInterval(seconds)
        } else {
            state.revertAt = nil
        }
        return blockingStatus(state: &state, now: now)
    }

    // MARK: - Info

    static func hostInfo(state: SimulatorState) -> SimulatedResponse {
        .json(
            200,
            [
                "host": [
                    "uname": [
                        "domainname": "(none)", "machine": "x86_64", "nodename": .string(state.hostName),
                        "release": "6.1.0-sim", "sysname": "Linux", "version": "#1 SMP PiHoleSimulator",
                    ],
                    "model": nil,
                    "dmi": ["bios": ["vendor": nil], "board": ["name": nil, "vendor": nil, "version": nil]],
                ]
            ])
    }

    static func versionInfo(state: SimulatorState) -> SimulatedResponse {
        func component(_ version: String?) -> JSONValue {
            let known = version != nil
            let remote = state.latestVersion ?? version
            return [
                "local": ["branch": known ? "master" : nil, "version": version.map(JSONValue.string) ?? nil, "hash": known ? "0000000" : nil],
                "remote": ["version": remote.map(JSONValue.string) ?? nil, "hash": remote != nil ? "0000000" : nil],
            ]
        }
        let coreAndWeb = state.onlyFTLVersionKnown ? nil : state.version
        return .json(
            200,
            [
                "version": [
                    "core": component(coreAndWeb), "web": component(coreAndWeb),
                    "ftl": component(state.version), "docker": ["local": nil, "remote": nil],
                ]
            ])
    }
}
