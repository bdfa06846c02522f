import BridgeCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle

/// The optional HTTP listener (`bridge.health`): `/healthz` answers 200 only while the broker
/// is connected, `/metrics` is the Prometheus text of everything `BridgeMetrics` records.
///
/// Two fixed GET routes on SwiftNIO's HTTP/1 server pipeline, which the HTTP client links
/// anyway: a web framework here (Hummingbird, with the file system, middleware and stream
/// libraries it brings) would add megabytes to the shipped binary.
struct HealthServer: Service {
    let configuration: HealthConfiguration
    let registry: PrometheusCollectorRegistry
    let logger: Logger
    let isHealthy: @Sendable () -> Bool

    func run() async throws {
        let routes = HealthRoutes(registry: registry, isHealthy: isHealthy)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(HealthHandler(routes: routes))
                }
            }
            .bind(host: configuration.bindAddress, port: configuration.port).get()
        logger.info("health endpoint listening", metadata: ["address": "\(configuration.bindAddress):\(configuration.port)"])
        // The service group stops it first at a graceful shutdown: closing the listener ends `run`.
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
    }
}

/// What each path answers: a pure function of the request, so the handler only moves bytes.
struct HealthRoutes: Sendable {
    let registry: PrometheusCollectorRegistry
    let isHealthy: @Sendable () -> Bool

    func answer(_ head: HTTPRequestHead) -> (status: HTTPResponseStatus, contentType: String, body: [UInt8]) {
        guard head.method == .GET || head.method == .HEAD else { return (.methodNotAllowed, "text/plain", Array("GET only\n".utf8)) }
        switch head.uri.split(separator: "?", maxSplits: 1).first {
        case "/healthz":
            return isHealthy()
                ? (.ok, "text/plain", Array("ok\n".utf8))
                : (.serviceUnavailable, "text/plain", Array("MQTT broker not connected\n".utf8))
        case "/metrics":
            return (.ok, "text/plain; version=0.0.4; charset=utf-8", registry.emitToBuffer())
        default:
            return (.notFound, "text/plain", Array("not found\n".utf8))
        }
    }
}

/// One connection: answers each request when it has been read whole, keeping the connection
/// open when the client asked to.
private final class HealthHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: HealthRoutes
    private var head: HTTPRequestHead?

    init(routes: HealthRoutes) {
        self.routes = routes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body:
            break
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let answer = routes.answer(head)
        var headers = HTTPHeaders([("Content-Type", answer.contentType), ("Content-Length", "\(answer.body.count)")])
        if !head.isKeepAlive { headers.add(name: "Connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: answer.status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: answer.body)))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        guard !head.isKeepAlive else { return }
        written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
