#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// Login, refresh and token checks of the core service. Pure: state in, response out.
enum ReefAuthEngine {
    /// `POST /api/auth/login`: form fields only, as FastAPI's `OAuth2PasswordRequestForm`
    /// (core/api/auth.py). FastAPI 0.111 takes an empty form field for a missing one
    /// (fastapi/dependencies/utils.py), and the form's `grant_type` must match `password` when given
    /// (fastapi/security/oauth2.py): both 422, before the credentials are looked at.
    static func login(_ request: ReefSimulatedRequest, state: inout ReefSimulatorState, now: Date) -> ReefSimulatedResponse {
        state.loginCount += 1
        let fields = request.isForm ? ReefQuery.parse(String(decoding: request.body, as: UTF8.self)) : [:]
        let missing = ["username", "password"].filter { fields[$0]?.isEmpty != false }
        guard missing.isEmpty else {
            let items: [JSONValue] = missing.map {
                ["type": "missing", "loc": ["body", .string($0)], "msg": "Field required", "input": nil]
            }
            return .json(422, ["detail": .array(items)])
        }
        if let grantType = fields["grant_type"], !grantType.isEmpty, !grantType.contains("password") {
            return .json(422, ["detail": [[
                "type": "string_pattern_mismatch", "loc": ["body", "grant_type"], "msg": "String should match pattern 'password'",
                "input": .string(grantType), "ctx": ["pattern": "password"],
            ]]])
        }
        var response: ReefSimulatedResponse
        if fields["username"] == state.options.username, fields["password"] == state.options.password {
            response = .json(200, grant(state: &state, now: now))
        } else {
            response = .detail(401, "Incorrect username or password")
        }
        response.delay = state.options.loginDelay
        return response
    }

    /// `POST /api/auth/refresh` with `{"refresh_token":…}`; only when the option offers it.
    static func refresh(_ request: ReefSimulatedRequest, state: inout ReefSimulatorState, now: Date) -> ReefSimulatedResponse {
        guard state.options.offersRefreshToken else { return .notFound }
        state.refreshCount += 1
        guard let token = JSONValue.parse(request.body)?["refresh_token"]?.stringValue,
            state.refreshTokens.remove(token) != nil
        else {
            return .invalidCredentials
        }
        return .json(200, grant(state: &state, now: now))
    }

    /// `nil` when the request carries a valid token; the refusal otherwise. The core answers a
    /// missing header with a plain-text 500 (its dependency crashes), the others with 401.
    static func refusal(
        _ request: ReefSimulatedRequest, service: BellasReefSimulator.Service, state: ReefSimulatorState, now: Date
    ) -> ReefSimulatedResponse? {
        guard let token = request.bearerToken else {
            return service == .core ? .internalError : .notAuthenticated
        }
        // python-jose's `_validate_exp` (jose/jwt.py) compares `exp` with the current whole second:
        // a token is still good during the second `exp` names.
        guard let expiry = state.accessTokens[token], now < expiry + 1 else { return .invalidCredentials }
        return nil
    }

    private static func grant(state: inout ReefSimulatorState, now: Date) -> JSONValue {
        // `exp` is whole seconds in a JWT (refused after that second: `refusal`).
        let lifetime = state.options.tokenLifetime.components
        let exp = Date(timeIntervalSince1970: (now.timeIntervalSince1970
            + Double(lifetime.seconds) + Double(lifetime.attoseconds) / 1e18).rounded(.down))
        let token = FakeJWT.make(subject: state.options.username, expiry: exp)
        state.accessTokens[token] = exp
        var body: [String: JSONValue] = ["access_token": .string(token), "token_type": "bearer"]
        if state.options.offersRefreshToken {
            let refresh = FakeJWT.randomSegment()
            state.refreshTokens.insert(refresh)
            body["refresh_token"] = .string(refresh)
        }
        return .object(body)
    }
}

/// An HS256-looking JWT with `{"sub","exp"}` and a random (not a real) signature: the
/// simulator knows its tokens by their text, and clients read only `exp`.
enum FakeJWT {
    static func make(subject: String, expiry: Date) -> String {
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = JSONValue.object([
            "sub": .string(subject), "exp": .number(expiry.timeIntervalSince1970),
        ])
        return header + "." + base64URL(Data(payload.encoded())) + "." + randomSegment()
    }

    static func randomSegment() -> String {
        base64URL(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacing("+", with: "-").replacing("/", with: "_")
            .replacing("=", with: "")
    }
}

/// `a=1&b=two+words` → `["a": "1", "b": "two words"]` (a query or a form body).
enum ReefQuery {
    static func parse(_ text: String?) -> [String: String] {
        guard let text,
            let items = URLComponents(string: "http://simulator/?" + text.replacing("+", with: "%20"))?
                .queryItems
        else { return [:] }
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    }
}
