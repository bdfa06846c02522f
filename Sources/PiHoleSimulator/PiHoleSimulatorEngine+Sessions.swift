import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/api/auth/sessions` and the configuration the sessions depend on (`/api/config/…`).
extension PiHoleSimulatorEngine {
    static func sessionList(_ request: SimulatedRequest, state: SimulatorState) -> SimulatedResponse {
        let sessions = state.sessions.sorted { $0.value.id < $1.value.id }.map { sid, session -> JSONValue in
            [
                "id": .number(Double(session.id)),
                "current_session": .bool(sid == request.sid),
                "valid": true,
                "tls": ["login": false, "mixed": false],
                "app": .bool(session.isApp),
                "cli": false,
                "login_at": .number(session.loginAt.timeIntervalSince1970.rounded(.down)),
                "last_active": .number(session.lastActive.timeIntervalSince1970.rounded(.down)),
                "valid_until": .number(session.expiry.timeIntervalSince1970.rounded(.down)),
                "remote_addr": .string(session.remoteAddress),
                "user_agent": session.userAgent.map(JSONValue.string) ?? nil,
                "x_forwarded_for": nil,
            ]
        }
        return .json(200, ["sessions": .array(sessions)])
    }

    /// `DELETE /api/auth/session/{id}`: ends the session in that seat, whoever holds it.
    static func deleteSession(_ id: String, state: inout SimulatorState) -> SimulatedResponse {
        guard let seat = Int(id) else {
            return .error(400, key: "bad_request", message: "Missing or invalid session ID", hint: .string(id))
        }
        guard let sid = state.sessions.first(where: { $0.value.id == seat })?.key else {
            return .error(404, key: "not_found", message: "Session ID not in use", hint: .string(id))
        }
        state.sessions[sid] = nil
        return .noContent
    }

    /// The part of the configuration the simulator knows.
    static func configuration(_ state: SimulatorState) -> JSONValue {
        [
            "webserver": [
                "api": [
                    "max_sessions": .number(Double(state.maxSessions)),
                    "allow_destructive": .bool(state.allowDestructive),
                ]
            ]
        ]
    }

    /// `GET /api/config[/{element path}]`: the element keeps its nesting,
    /// e.g. `/api/config/webserver/api/max_sessions` → `{"config":{"webserver":{"api":{"max_sessions":16}}}}`.
    static func config(path: [String], state: SimulatorState) -> SimulatedResponse {
        var element = configuration(state)
        for key in path {
            guard let inner = element[key] else {
                return .error(400, key: "bad_request", message: "Config item is invalid", hint: .string(path.joined(separator: ".")))
            }
            element = inner
        }
        for key in path.reversed() { element = [key: element] }
        return .json(200, ["config": element])
    }
}
