import BridgeRuntime
import Hummingbird
import MQTTTestSupport
import NIOCore
import NIOHTTP1
import Synchronization
import Testing
import UpstreamHTTP

/// `UpstreamHTTPClient.collect`, through which every upstream client sends its requests: the whole
/// body within the time limit, no more than the size limit, cancelled with its task.
@Suite struct CollectedResponseTests {
    @Test func bringsBackStatusHeadersAndTheWholeBody() async throws {
        try await withCollectingClient { client, base in
            let response = try await client.collect(
                .POST, base + "/echo", headers: ["X-Test": "1"], body: ByteBuffer(string: "hello"), timeout: .seconds(20),
                maxBodySize: 1000)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "X-Echoed") == "1")
            #expect(String(buffer: response.body) == "POST hello")
        }
    }

    /// One kept-alive connection carries them all; the method, headers and body are each call's own.
    @Test func callsToOneURLKeepTheirOwnMethodHeadersAndBody() async throws {
        try await withCollectingClient { client, base in
            for (text, header) in [("first", "1"), ("second", "2"), ("third", "")] {
                let response = try await client.collect(
                    .POST, base + "/echo", headers: header.isEmpty ? [:] : ["X-Test": header], body: ByteBuffer(string: text),
                    timeout: .seconds(20), maxBodySize: 1000)
                #expect(String(buffer: response.body) == "POST " + text)
                #expect(response.headers.first(name: "X-Echoed") == header)
            }
            let get = try await client.collect(.GET, base + "/echo", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1000)
            #expect(get.status == .notFound)
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        try await withCollectingClient { client, base in
            await #expect(throws: (any Error).self) {
                _ = try await client.collect(.GET, base + "/big", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1000)
            }
        }
    }

    /// The time limit covers the body too: a body that stops half-way is given up on.
    @Test func aStalledBodyIsGivenUpOnAtTheTimeLimit() async throws {
        try await withCollectingClient { client, base in
            let error = await #expect(throws: UpstreamError.self) {
                _ = try await client.collect(.GET, base + "/stall", headers: [:], body: nil, timeout: .seconds(1), maxBodySize: 1000)
            }
            #expect(error?.code == .timedOut)
            #expect(error?.message == "no complete answer within 1.0 seconds")
        }
    }

    /// A successful body goes to the handler as it arrives, whatever its size (a gravity run's
    /// output); any other is collected.
    @Test func aSuccessfulBodyIsHandedOverAsItArrives() async throws {
        try await withCollectingClient { client, base in
            let chunks = Mutex<[String]>([])
            let streamed = try await client.collect(
                .GET, base + "/big", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1000,
                successBodyTo: { chunk in chunks.withLock { $0.append(String(buffer: chunk)) } })
            #expect(streamed.status == .ok && streamed.body.readableBytes == 0)
            #expect(chunks.withLock { $0.joined() } == String(repeating: "x", count: 2000))
            let refused = try await client.collect(
                .GET, base + "/missing", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1000,
                successBodyTo: { _ in Issue.record("a 404's body was streamed") })
            #expect(refused.status == .notFound)
        }
    }

    /// More at once than the connections it keeps to one server: the rest wait their turn, and
    /// every one is answered.
    @Test func moreCallsAtOnceThanConnectionsAreAllAnswered() async throws {
        try await withCollectingClient { client, base in
            let answers = try await withThrowingTaskGroup(of: String.self) { group in
                for number in 0..<40 {
                    group.addTask {
                        let response = try await client.collect(
                            .POST, base + "/echo", headers: [:], body: ByteBuffer(string: "\(number)"), timeout: .seconds(10), maxBodySize: 1000)
                        return String(buffer: response.body)
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(answers == Set((0..<40).map { "POST \($0)" }))
        }
    }

    @Test func aRefusedConnectionFailsAtOnce() async throws {
        let client = try UpstreamHTTPClient(tls: nil)
        try await LoopbackPort.withRefusing { port in
            let error = await #expect(throws: UpstreamError.self) {
                _ = try await client.collect(.GET, "http://127.0.0.1:\(port)/", headers: [:], body: nil, timeout: .seconds(30), maxBodySize: 1000)
            }
            #expect(error?.code == .connectFailed)
        }
        try await client.shutdown()
    }

    @Test func aCancelledTaskThrowsCancellationError() async throws {
        try await withCollectingClient { client, base in
            let request = Task {
                try await client.collect(.GET, base + "/stall", headers: [:], body: nil, timeout: .seconds(60), maxBodySize: 1000)
            }
            try await Task.sleep(for: .milliseconds(300))
            request.cancel()
            await #expect(throws: CancellationError.self) { _ = try await request.value }
        }
    }

    /// A poll cancelled at shutdown went on to send each of its remaining reads, cancelled at
    /// once: requests the upstream could log after the logout that ended the session.
    @Test func aTaskCancelledBeforeTheCallSendsNothing() async throws {
        let received = RequestCount()
        try await withCollectingClient(counting: received) { client, base in
            // A kept-alive connection, which a request can go out on at once.
            _ = try await client.collect(.POST, base + "/echo", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1000)
            // On the loop that holds the connection, as the bridge's tasks are.
            let request = Task(executorPreference: BridgeEventLoop.taskExecutor) {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.collect(.GET, base + "/echo", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1000)
            }
            await #expect(throws: CancellationError.self) { _ = try await request.value }
            // A request sent and cut off would reach the server before this one, on its own connection.
            let answered = try await client.collect(.POST, base + "/echo", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1000)
            #expect(answered.status == .ok)
            try await Task.sleep(for: .milliseconds(200))
            #expect(received.value == 2)
        }
    }
}

private final class RequestCount: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}

/// A loopback HTTP server counting the requests it receives in `received` (`/echo`, `/big`, `/stall`: a head and part of a body, then 5 s of
/// nothing before it ends short) and a client of it, for the length of `body`.
private func withCollectingClient(
    counting received: RequestCount = RequestCount(), _ body: (UpstreamHTTPClient, String) async throws -> Void
) async throws {
    let router = Router()
    router.middlewares.add(CountingMiddleware(count: received))
    router.post("/echo") { request, _ -> Response in
        let sent = try await request.body.collect(upTo: 1000)
        let echoed = request.headers[.init("X-Test")!] ?? ""
        return Response(
            status: .ok, headers: [.init("X-Echoed")!: echoed],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "POST " + String(buffer: sent))))
    }
    router.get("/big") { _, _ in String(repeating: "x", count: 2000) }
    router.get("/stall") { _, _ in
        Response(status: .ok, body: ResponseBody(contentLength: 100) { writer in
            try await writer.write(ByteBuffer(string: "part of it"))
            try await Task.sleep(for: .seconds(5))
            try await writer.finish(nil)
        })
    }
    // Its connections on the bridge's loop, as the upstream clients' are.
    let client = try UpstreamHTTPClient(tls: nil)
    try await withTestListener(router) { base in
        do {
            try await body(client, base)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}

private struct CountingMiddleware<Context: RequestContext>: RouterMiddleware {
    let count: RequestCount

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        count.add()
        return try await next(request, context)
    }
}
