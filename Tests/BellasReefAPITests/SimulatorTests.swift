@testable import BellasReefSimulator
import Foundation
import NIOHTTP1
import Synchronization
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

    /// FastAPI 0.111: an empty form field is a missing one, and `grant_type` must match `password`.
    @Test func loginRefusesEmptyFieldsAndAnotherGrantType() async throws {
        try await withSimulator { simulator, http in
            func login(_ form: String) async throws -> (status: Int, body: String) {
                let answer = try await rawRequest(
                    http, .POST, simulator.baseURL(.core) + "/api/auth/login",
                    headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
                return (answer.status, answer.body)
            }
            let empty = try await login("username=&password=reefrocks")
            #expect(empty.status == 422 && empty.body.contains(#""loc":["body","username"]"#), "\(empty.body)")
            let refresh = try await login("grant_type=refresh_token&username=bellas&password=reefrocks")
            #expect(refresh.status == 422 && refresh.body.contains(#""loc":["body","grant_type"]"#), "\(refresh.body)")
            #expect(try await login("grant_type=password&username=bellas&password=reefrocks").status == 200)
        }
    }

    /// Starlette's routing, before the token is looked at: another method on a command is 405, a
    /// trailing slash 307 to the path without it; neither switches the plug.
    @Test func aCommandWithAnotherMethodOrATrailingSlashSwitchesNothing() async throws {
        try await withSimulator { simulator, http in
            let heater = "31993ecf-4215-4187-82c1-6ee5bda82d92"
            let command = simulator.baseURL(.outlets) + "/api/smartoutlets/outlets/\(heater)/turn_on"
            for method: HTTPMethod in [.PUT, .DELETE, .GET] {
                let answer = try await rawRequest(http, method, command)
                #expect(answer.status == 405 && answer.body == #"{"detail":"Method Not Allowed"}"#, "\(method)")
                #expect(answer.headers.first(name: "Allow") == "POST")
            }
            let slashed = try await rawRequest(http, .POST, command + "/")
            #expect(slashed.status == 307 && slashed.headers.first(name: "Location") == command)
            #expect(simulator.outlet(heater)?.isOn == false)
        }
    }

    /// A plug that accepts and never answers: the controller gives up and answers as for a refused
    /// connection, never with its 504.
    @Test func aPlugThatNeverAnswersIsAConnectionError() async throws {
        var options = BellasReefSimulator.Options()
        options.plugFailureDelay = .milliseconds(100)
        try await withSimulator(options) { simulator, http in
            let heater = "31993ecf-4215-4187-82c1-6ee5bda82d92"
            simulator.updateOutlet(heater) { $0.plug = .timingOut; $0.isOn = true }
            let token = try #require(try await login(simulator, http).body.split(separator: "\"").dropFirst(3).first)
            let auth = [("Authorization", "Bearer \(token)")]
            let base = simulator.baseURL(.outlets) + "/api/smartoutlets/outlets/\(heater)"
            let command = try await rawRequest(http, .POST, base + "/turn_off", headers: auth)
            #expect(command.status == 503 && command.body.contains(#""code":"outlet_connection_error""#), "\(command.body)")
            let state = try await rawRequest(http, .GET, base + "/state", headers: auth)
            #expect(state.status == 200 && state.body.contains(#""is_on":false"#), "\(state.body)")
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

    /// python-jose compares `exp` with the current whole second: a token is good until the second
    /// after `exp` begins, not from `exp` on.
    @Test func aTokenIsGoodDuringTheSecondItsExpNames() async throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000.3))
        var options = BellasReefSimulator.Options()
        options.tokenLifetime = .seconds(10)
        options.now = { clock.withLock { $0 } }
        try await withSimulator(options) { simulator, http in
            let body = try await login(simulator, http).body
            let token = try #require(body.split(separator: "\"").dropFirst(3).first)
            let state = simulator.baseURL(.outlets) + "/api/smartoutlets/outlets/\(SimulatedOutlet.observed[1].id)/state"
            func status(at time: Double) async throws -> Int {
                clock.withLock { $0 = Date(timeIntervalSince1970: time) }
                return try await rawRequest(http, .GET, state, headers: [("Authorization", "Bearer \(token)")]).status
            }
            #expect(try await status(at: 1_800_000_010.5) == 200)  // exp is …010
            #expect(try await status(at: 1_800_000_011) == 401)
        }
    }

    /// An outlet id goes to PostgreSQL through asyncpg, which takes 32 to 36 characters with
    /// hyphens anywhere skipped: the heater without its hyphens, or in capitals, is the heater.
    @Test func anOutletIdWithoutHyphensIsTheSameOutlet() async throws {
        try await withSimulator { simulator, http in
            let body = try await login(simulator, http).body
            let token = try #require(body.split(separator: "\"").dropFirst(3).first)
            let heater = SimulatedOutlet.observed[2].id
            for id in [heater.replacingOccurrences(of: "-", with: ""), heater.uppercased(), "31993ecf42154187-82c16ee5bda82d92"] {
                let answer = try await rawRequest(
                    http, .GET, simulator.baseURL(.outlets) + "/api/smartoutlets/outlets/\(id)/state",
                    headers: [("Authorization", "Bearer \(token)")])
                #expect(answer.status == 200, "\(id): \(answer.body)")
            }
            let short = try await rawRequest(
                http, .GET, simulator.baseURL(.outlets) + "/api/smartoutlets/outlets/\(heater.dropLast())/state",
                headers: [("Authorization", "Bearer \(token)")])
            #expect(short.status == 503 && short.body.contains("SQL"), "35 characters, 31 digits")
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

/// How long a plug takes to fail, per action, as the specs' README measured the real services.
@Suite struct PlugFailureTimingTests {
    @Test func aRefusingPlugFailsASwitchAfterTheDelayAndAToggleOrStateReadAfterAQuarter() {
        var options = BellasReefSimulator.Options()
        options.plugFailureDelay = .seconds(12)
        var outlets = SimulatedOutlet.observed
        outlets[1].plug = .refusingConnections
        var state = ReefSimulatorState(options: options, outlets: outlets, probes: [])
        let id = outlets[1].id
        func delay(_ action: ReefOutletEngine.Action) -> Duration {
            ReefOutletEngine.perform(action, id: id, state: &state, failureDelay: options.plugFailureDelay).delay
        }
        #expect(delay(.turnOn) == .seconds(12) && delay(.turnOff) == .seconds(12))
        #expect(delay(.toggle) == .seconds(3) && delay(.state) == .seconds(3))
        state.outlets[1].plug = .timingOut
        #expect(delay(.toggle) == .seconds(18) && delay(.state) == .seconds(18), "a plug that never answers: ~18 s for all")
    }
}
