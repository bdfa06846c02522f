import AsyncHTTPClient
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import Testing
import UpstreamHTTP

/// `HTTPClient.collect`, through which every upstream client sends its requests: the whole body
/// within the time limit, no more than the size limit, cancelled with its task.
@Suite struct CollectedResponseTests {
    @Test func bringsBackStatusHeadersAndTheWholeBody() async throws {
        try await withCollectingClient { client, base in
            let response = try await client.collect(
                .POST, base + "/echo", headers: ["X-Test": "1"], body: ByteBuffer(string: "hello"), timeout: .seconds(5),
                maxBodySize: 1000)
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "X-Echoed") == "1")
            #expect(String(buffer: response.body) == "POST hello")
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        try await withCollectingClient { client, base in
            await #expect(throws: (any Error).self) {
                _ = try await client.collect(.GET, base + "/big", headers: [:], body: nil, timeout: .seconds(5), maxBodySize: 1000)
            }
        }
    }

    /// The time limit covers the body too: a body that stops half-way is given up on.
    @Test func aStalledBodyIsGivenUpOnAtTheTimeLimit() async throws {
        try await withCollectingClient { client, base in
            await #expect(throws: HTTPClientError.deadlineExceeded) {
                _ = try await client.collect(.GET, base + "/stall", headers: [:], body: nil, timeout: .seconds(1), maxBodySize: 1000)
            }
        }
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
}

/// A loopback HTTP server (`/echo`, `/big`, `/stall`: a head and part of a body, then 5 s of
/// nothing before it ends short) and a client of it, for the length of `body`.
private func withCollectingClient(_ body: (HTTPClient, String) async throws -> Void) async throws {
    let router = Router()
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
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    var quiet = Logger(label: "CollectedResponseTests")
    quiet.logLevel = .critical
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        },
        logger: quiet)
    // A read timeout of its own, so that a limit that failed to cover the body fails the test
    // rather than holding it.
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(timeout: .init(read: .seconds(10))))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        defer { group.cancelAll() }
        do {
            try await body(client, "http://127.0.0.1:\(port)")
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
