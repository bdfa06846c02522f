import AsyncHTTPClient
import BenchmarkReport
import Foundation
import JSONDocument
import NIOCore

/// The floor under a command, in the same run: what the broker and the upstream cost without
/// the bridge.
enum FloorScenario {
    /// Publish → the measuring client's own subscription, `count` times one at a time.
    static func brokerRoundTrip(count: Int, in world: BenchmarkWorld) async throws -> LatencySummary? {
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        for round in 0..<(CommandLatencyScenario.warmUp + count) {
            let topic = "\(BenchmarkWorld.echoTopic)/\(round)"
            let (elapsed, _) = try await world.client.roundTrip(publishing: "30", to: topic, answeredOn: topic, timeout: .seconds(10))
            if round >= CommandLatencyScenario.warmUp { samples.append(elapsed) }
        }
        return LatencySummary(samples)
    }

    /// `GET /api/dns/blocking` with a session id, `count` times on one kept-alive connection to
    /// the Pi-hole simulator: the call a pause's answer waits for. Logs in once and out after.
    static func httpRequest(count: Int, baseURL: String, password: String = "correct horse") async throws -> LatencySummary? {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let sid = try await logIn(http, baseURL: baseURL, password: password)
            var samples: [Duration] = []
            samples.reserveCapacity(count)
            var request = HTTPClientRequest(url: baseURL + "/api/dns/blocking")
            request.headers.add(name: "X-FTL-SID", value: sid)
            for round in 0..<(CommandLatencyScenario.warmUp + count) {
                let start = ContinuousClock.now
                let response = try await http.execute(request, timeout: .seconds(10))
                _ = try await response.body.collect(upTo: 1 << 16)
                let elapsed = ContinuousClock.now - start
                guard response.status == .ok else { throw FloorError("GET /api/dns/blocking answered \(response.status)") }
                if round >= CommandLatencyScenario.warmUp { samples.append(elapsed) }
            }
            var logout = HTTPClientRequest(url: baseURL + "/api/auth")
            logout.method = .DELETE
            logout.headers.add(name: "X-FTL-SID", value: sid)
            _ = try? await http.execute(logout, timeout: .seconds(10))
            try await http.shutdown()
            return LatencySummary(samples)
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private static func logIn(_ http: HTTPClient, baseURL: String, password: String) async throws -> String {
        var login = HTTPClientRequest(url: baseURL + "/api/auth")
        login.method = .POST
        login.headers.add(name: "Content-Type", value: "application/json")
        login.body = .bytes(ByteBuffer(bytes: JSONValue.object(["password": .string(password)]).encoded()))
        let response = try await http.execute(login, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 16)
        guard let sid = JSONValue.parse(Array(buffer: body))?["session"]?["sid"]?.stringValue else {
            throw FloorError("the Pi-hole simulator refused the login (\(response.status))")
        }
        return sid
    }
}

struct FloorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
