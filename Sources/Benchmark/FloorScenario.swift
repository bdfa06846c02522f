import AsyncHTTPClient
import BenchmarkReport
import JSONDocument
import NIOCore
import NIOHTTP1
import UpstreamHTTP

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

    /// The pause's own call, `POST /api/dns/blocking` with `{"blocking":false,"timer":30}` and a
    /// session id, `count` times on one kept-alive connection to the Pi-hole simulator, made as
    /// the bridge makes it (an `UpstreamHTTPClient`, its connection on the bridge's event loop,
    /// `collect` from a task that prefers that loop) with nothing of the bridge around it. Logs
    /// in once and out after.
    static func httpRequest(count: Int, baseURL: String, password: String = "correct horse") async throws -> LatencySummary? {
        let http = try await UpstreamHTTPClient.make(baseURL: baseURL, tls: .system, requestTimeout: .seconds(10))
        do {
            let samples = try await withTaskExecutorPreference(BridgeEventLoop.taskExecutor) {
                let sid = try await logIn(http, baseURL: baseURL, password: password)
                // The headers and the body the Pi-hole client sends.
                let headers: HTTPHeaders = ["Accept": "application/json", "X-FTL-SID": sid, "Content-Type": "application/json"]
                let pause = ByteBuffer(bytes: JSONValue.object(["blocking": false, "timer": 30]).encoded())
                var samples: [Duration] = []
                samples.reserveCapacity(count)
                for round in 0..<(CommandLatencyScenario.warmUp + count) {
                    let start = ContinuousClock.now
                    let response = try await http.collect(
                        .POST, baseURL + "/api/dns/blocking", headers: headers, body: pause, timeout: .seconds(10), maxBodySize: 1 << 16)
                    let elapsed = ContinuousClock.now - start
                    guard response.status == .ok else { throw FloorError("POST /api/dns/blocking answered \(response.status)") }
                    if round >= CommandLatencyScenario.warmUp { samples.append(elapsed) }
                }
                _ = try? await http.collect(.DELETE, baseURL + "/api/auth", headers: ["X-FTL-SID": sid], body: nil, timeout: .seconds(10), maxBodySize: 1 << 16)
                return samples
            }
            try await http.shutdown()
            return LatencySummary(samples)
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private static func logIn(_ http: HTTPClient, baseURL: String, password: String) async throws -> String {
        let response = try await http.collect(
            .POST, baseURL + "/api/auth", headers: ["Content-Type": "application/json"],
            body: ByteBuffer(bytes: JSONValue.object(["password": .string(password)]).encoded()), timeout: .seconds(10), maxBodySize: 1 << 16)
        guard let sid = JSONValue.parse(Array(buffer: response.body))?["session"]?["sid"]?.stringValue else {
            throw FloorError("the Pi-hole simulator refused the login (\(response.status))")
        }
        return sid
    }
}

struct FloorError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
