import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A loopback TCP server that answers HTTP requests with whatever bytes a test's script says, and
/// misbehaves as real servers and networks do: closes a kept-alive connection as a request
/// arrives, answers half, lies about a length, drips an answer, says nothing at all. The honest
/// tool for testing an HTTP client: a polite HTTP server cannot send what no HTTP server should.
public final class RawTCPServer: Sendable {
    /// A request as it arrived: on which connection (counted from 0 in the order accepted), the
    /// how-manyth on it (from 0), and its head as text.
    public struct Request: Sendable {
        public let connection: Int
        public let indexOnConnection: Int
        public let head: String

        /// `GET /path` and the like: the request line.
        public var line: Substring { head.prefix { $0 != "\r\n" } }
    }

    /// What the server does with a request.
    public enum Action: Sendable {
        /// Writes these bytes, then keeps the connection open or closes it.
        case send([UInt8], thenClose: Bool = false)
        /// Closes the connection without a byte.
        case close
        /// Writes these bytes a few at a time, one write every `interval`, then closes.
        case drip([UInt8], every: Duration)
        /// Never answers; keeps the connection open.
        case silence
    }

    public typealias Script = @Sendable (Request) -> Action

    private struct Counts {
        var accepted = 0
        var open = 0
        var requests: [Request] = []
    }

    private let script: Script
    private let counts = NIOLockedValueBox(Counts())
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)

    public init(_ script: @escaping Script) {
        self.script = script
    }

    /// Listens on 127.0.0.1 on a free port.
    public func start() async throws {
        let counts = counts
        let script = script
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let number = counts.withLockedValue { counts in
                    counts.accepted += 1
                    counts.open += 1
                    return counts.accepted - 1
                }
                channel.closeFuture.whenComplete { _ in counts.withLockedValue { $0.open -= 1 } }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ScriptedConnection(number: number, script: script, onRequest: { request in
                            counts.withLockedValue { $0.requests.append(request) }
                        }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        channel.withLockedValue { $0 = server }
    }

    public var port: Int { channel.withLockedValue { $0?.localAddress?.port } ?? 0 }
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Connections accepted so far.
    public var connectionsAccepted: Int { counts.withLockedValue(\.accepted) }
    /// Connections still open.
    public var openConnections: Int { counts.withLockedValue(\.open) }
    /// Every request received, in order.
    public var requests: [Request] { counts.withLockedValue(\.requests) }

    /// Stops listening; the connections accepted stay as they are until their clients close them.
    public func stop() async {
        try? await channel.withLockedValue { $0 }?.close()
    }
}

/// One accepted connection: collects each request (a head, and a body of its `Content-Length`),
/// asks the script, and does what it says.
private final class ScriptedConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let number: Int
    private let script: RawTCPServer.Script
    private let onRequest: (RawTCPServer.Request) -> Void
    private var received = ByteBuffer()
    private var served = 0

    init(number: Int, script: @escaping RawTCPServer.Script, onRequest: @escaping (RawTCPServer.Request) -> Void) {
        self.number = number
        self.script = script
        self.onRequest = onRequest
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var chunk = unwrapInboundIn(data)
        received.writeBuffer(&chunk)
        while let head = nextRequestHead() {
            let request = RawTCPServer.Request(connection: number, indexOnConnection: served, head: head)
            served += 1
            onRequest(request)
            perform(script(request), context: context)
        }
    }

    /// The head of the next whole request, consumed with its body; `nil` until one has arrived.
    private func nextRequestHead() -> String? {
        let bytes = Array(received.readableBytesView)
        guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0...($0 + 3)] == [13, 10, 13, 10] }) else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let length = head.split(separator: "\r\n").compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingPrefix(" "))
        }.first ?? 0
        guard bytes.count >= end + 4 + length else { return nil }
        received.moveReaderIndex(forwardBy: end + 4 + length)
        received.discardReadBytes()
        return head
    }

    private func perform(_ action: RawTCPServer.Action, context: ChannelHandlerContext) {
        switch action {
        case .send(let bytes, let thenClose):
            let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes)))
            if thenClose { written.assumeIsolated().whenComplete { _ in context.close(promise: nil) } }
        case .close:
            context.close(promise: nil)
        case .drip(let bytes, let interval):
            drip(bytes[...], every: TimeAmount.nanoseconds(Int64(interval.components.seconds) * 1_000_000_000
                + Int64(interval.components.attoseconds / 1_000_000_000)), context: context)
        case .silence:
            break
        }
    }

    private func drip(_ bytes: ArraySlice<UInt8>, every interval: TimeAmount, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        guard !bytes.isEmpty else {
            context.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes.prefix(4))), promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: interval) { [self] in
            drip(bytes.dropFirst(4), every: interval, context: context)
        }
    }
}
