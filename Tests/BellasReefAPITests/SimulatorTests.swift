import BellasReefSimulator
import Foundation
import Testing
import UpstreamHTTP

@Suite("Bella's Reef simulator answers like the real services")
struct SimulatorTests {
    /// The simulator and a raw HTTP client (the fixture's BellasReefClient stays unused).
    func withSimulator(
        _ options: BellasReefSimulator.Options = .init(),
        _ body: (BellasReefSimulator, UpstreamHTTPClient) async throws -> Void
    ) async throws {
        try await withReef(options: options) { f in try await body(f.simulator, f.http) }
    }

    func login(_ simulator: BellasReefSimulator, _ http: UpstreamHTTPClient, password: String = "reefrocks") async throws
        -> (status: Int, body: String)
    {
        let answer = try await rawRequest(
            http, .POST, simulator.baseURL(.core) + "/api/auth/login",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "username=bellas&password=\(password)")
        return (answer.status, answer.body)
    }

    @Test func loginIsFormOnly() async throws {
        try await withSimulator { simulator, http in
            let json = try await rawRequest(
                http, .POST, simulator.baseURL(.core) + "/api/auth/login", headers: [("Content-Type", "application/json")],
                body: #"{"username":"bellas","password":"reefrocks"}"#)
            #expect(json.status == 422 && json.body.contains(#""msg":"Field required""#))
            let wrong = try await login(simulator, http, password: "wrong")
            #expect(wrong.status == 401 && wrong.body == #"{"detail":"Incorrect username or password"}"#)
            let good = try await login(simulator, http)
            #expect(good.status == 200 && good.body.contains(#""token_type":"bearer""#))
            #expect(!good.body.contains("refresh_token"))
            #expect(simulator.loginCount == 3)
            let refresh = try await rawRequest(http, .POST, simulator.baseURL(.core) + "/api/auth/refresh")
            #expect(refresh.status == 404)
        }
    }

    @Test func missingAndBadTokens() async throws {
        try await withSimulator { simulator, http in
            let core = try await rawRequest(http, .GET, simulator.baseURL(.core) + "/api/host-info")
            #expect(core.status == 500 && core.body == "Internal Server Error")
            #expect(core.headers.first(name: "Content-Type") == "text/plain; charset=utf-8")
            for service in [BellasReefSimulator.Service.temperature, .outlets] {
                let path = service == .outlets ? "/api/smartoutlets/outlets/" : "/probe/list"
                let none = try await rawRequest(http, .GET, simulator.baseURL(service) + path)
                #expect(none.status == 401 && none.body == #"{"detail":"Not authenticated"}"#)
                let bad = try await rawRequest(
                    http, .GET, simulator.baseURL(service) + path, headers: [("Authorization", "Bearer forged.token.x")])
                #expect(bad.status == 401 && bad.body == #"{"detail":"Could not validate credentials"}"#)
                #expect(bad.headers.first(name: "WWW-Authenticate") == "Bearer")
            }
        }
    }

    @Test func redirectWithoutSlashAndSQLForANonUUID() async throws {
        try await withSimulator { simulator, http in
            let base = simulator.baseURL(.outlets)
            let redirect = try await rawRequest(http, .GET, base + "/api/smartoutlets/outlets?include_disabled=true")
            #expect(redirect.status == 307)
            #expect(redirect.headers.first(name: "Location") == base + "/api/smartoutlets/outlets/?include_disabled=true")

            let body = try await login(simulator, http).body
            let token = try #require(body.split(separator: "\"").dropFirst(3).first)
            let sql = try await rawRequest(
                http, .GET, base + "/api/smartoutlets/outlets/heater/state", headers: [("Authorization", "Bearer \(token)")])
            #expect(sql.status == 503 && sql.body.contains("SQL"))
        }
    }

    @Test func tokenCarriesSubAndExp() async throws {
        var options = BellasReefSimulator.Options()
        options.tokenLifetime = .seconds(100)
        options.offersRefreshToken = true
        try await withSimulator(options) { simulator, http in
            let asked = Date().timeIntervalSince1970
            let body = try await login(simulator, http).body
            let answered = Date().timeIntervalSince1970
            #expect(body.contains("refresh_token"))
            let token = try #require(body.split(separator: "\"").dropFirst(3).first)
            let parts = token.split(separator: ".")
            #expect(parts.count == 3)
            var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
            let data = try #require(Data(base64Encoded: payload))
            let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(claims["sub"] as? String == "bellas")
            let exp = try #require(claims["exp"] as? Double)
            // Issued between the ask and the answer, in whole seconds: a loaded machine may take
            // seconds to answer, so the bounds are those two moments, not a tolerance.
            #expect(exp == exp.rounded(.down))
            #expect((asked + 100).rounded(.down) <= exp && exp <= answered + 100)
        }
    }
}
