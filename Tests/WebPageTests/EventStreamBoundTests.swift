import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import MQTTTestSupport
import Testing
import WebPage

/// A page that stops reading its event stream is dropped, not buffered for without end.
@Suite struct EventStreamBoundTests {
    @Test func aClientThatDoesNotReadIsDropped() async throws {
        let opened = NIOLockedValueBox<EventStreamChannel?>(nil)
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(HTTPConnectionHandler { _ in
                        .events { stream in opened.withLockedValue { $0 = stream } }
                    })
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        // A client that sends its request and then reads nothing.
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            .connect(host: "127.0.0.1", port: server.localAddress?.port ?? 0).get()
        try await client.writeAndFlush(ByteBuffer(string: "GET /events HTTP/1.1\r\nHost: x\r\n\r\n"))
        var stream: EventStreamChannel?
        while stream == nil {
            try await Task.sleep(for: .milliseconds(10))
            stream = opened.withLockedValue { $0 }
        }
        let events = try #require(stream)

        // 64 MiB offered in 64 KiB events: far beyond what the sockets hold, and the bound.
        let event = String(repeating: "x", count: 64 << 10)
        let closed = Atomic<Bool>(false)
        events.closeFuture.whenComplete { _ in closed.store(true, ordering: .relaxed) }
        for _ in 0..<1024 where !closed.load(ordering: .relaxed) {
            events.send("filler", event)
            try await Task.sleep(for: .milliseconds(1))
        }
        try await waitUntil("the stream to be dropped", timeout: .seconds(10)) { closed.load(ordering: .relaxed) }
        try await client.close()
        try await server.close()
    }
}
