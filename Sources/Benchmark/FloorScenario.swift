import BenchmarkReport
import BridgeRuntime
import JSONDocument
import NIOCore
import NIOHTTP1
import UpstreamHTTP

/// The floor under a command, in the same run: what the broker and the upstream cost without
/// the bridge, measured in blocks beside the pause (`BesideTheFloor`).
enum FloorScenario {
    /// A broker round trip, then the pause's call, `rounds` times: the floor's parts as a command
    /// meets them (its command's pass, its call, its answer's pass), each after the other part.
    /// Called with the loop's preference, which the call needs; the round trips go out from
    /// Swift's global executor, as the measuring client's always do.
    static func alternated(_ rounds: Range<Int>, in world: BenchmarkWorld, through call: PauseCall) async throws
        -> (roundTrips: [Duration], calls: [Duration])
    {
        var roundTrips: [Duration] = [], calls: [Duration] = []
        for round in rounds {
            roundTrips += try await withTaskExecutorPreference(globalConcurrentExecutor) {
                try await brokerRoundTrips(round..<round + 1, in: world, under: "alternated")
            }
            calls += try await httpRequests(1, through: call)
        }
        return (roundTrips, calls)
    }

    /// Publish → the measuring client's own subscription, `rounds` one at a time (each round a
    /// topic of its own, below `prefix` if given).
    static func brokerRoundTrips(_ rounds: Range<Int>, in world: BenchmarkWorld, under prefix: String? = nil) async throws -> [Duration] {
        var samples: [Duration] = []
        samples.reserveCapacity(rounds.count)
        for round in rounds {
            let topic = [BenchmarkWorld.echoTopic, prefix, "\(round)"].compactMap { $0 }.joined(separator: "/")
            samples.append(try await world.client.roundTrip(publishing: "30", to: topic, answeredOn: topic, timeout: .seconds(10)).elapsed)
        }
        return samples
    }

    /// The pause's own call, `count` times on one kept-alive connection (`PauseCall`).
    static func httpRequests(_ count: Int, through call: PauseCall) async throws -> [Duration] {
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            try await call.make()
            samples.append(ContinuousClock.now - start)
        }
        return samples
    }
}

/// The pause's own call, `POST /api/dns/blocking` with `{"blocking":false,"timer":30}` and a
/// session id, to a Pi-hole simulator, made as the bridge makes it (an `UpstreamHTTPClient`, its
/// connection on the bridge's event loop, `collect` from a task that prefers that loop) with
/// nothing of the bridge around it.
struct PauseCall: Sendable {
    private let http: UpstreamHTTPClient
    private let url: String
    private let headers: HTTPHeaders
    private static let body = ByteBuffer(bytes: JSONValue.object(["blocking": false, "timer": 30]).encoded())

    /// Runs `body` on the bridge's event loop with a client logged in to the simulator at
    /// `baseURL`; logs out and shuts the client down after.
    static func withSession<T: Sendable>(
        baseURL: String, password: String = "correct horse", _ body: @Sendable (PauseCall) async throws -> T
    ) async throws -> T {
        let http = try await UpstreamHTTPClient.make(baseURL: baseURL, tls: .system)
        do {
            let result = try await withTaskExecutorPreference(BridgeEventLoop.taskExecutor) {
                let sid = try await logIn(http, baseURL: baseURL, password: password)
                // The headers the Pi-hole client sends.
                let headers: HTTPHeaders = ["Accept": "application/json", "X-FTL-SID": sid, "Content-Type": "application/json"]
                let result = try await body(PauseCall(http: http, url: baseURL + "/api/dns/blocking", headers: headers))
                _ = try? await http.collect(
                    .DELETE, baseURL + "/api/auth", headers: ["X-FTL-SID": sid], body: nil, timeout: .seconds(10), maxBodySize: 1 << 16)
                return result
            }
            try await http.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// One call, until its body is read; throws unless it answered 200.
    func make() async throws {
        let response = try await http.collect(.POST, url, headers: headers, body: Self.body, timeout: .seconds(10), maxBodySize: 1 << 16)
        guard response.status == .ok else { throw FloorError("POST /api/dns/blocking answered \(response.status)") }
    }

    private static func logIn(_ http: UpstreamHTTPClient, baseURL: String, password: String) async throws -> String {
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
