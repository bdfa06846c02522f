import BridgeCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import WebPage

/// The optional HTTP listener (`bridge.health`): `/healthz` answers 200 only while the broker
/// is connected, `/metrics` is the Prometheus text of everything `BridgeMetrics` records, and
/// with `bridge.web` the bridge's page is there too.
///
/// SwiftNIO's HTTP/1 server pipeline, which the HTTP client links anyway: a web framework here
/// (Hummingbird, with the file system, middleware and stream libraries it brings) would add
/// megabytes to the shipped binary.
struct HealthServer: Service {
    let configuration: HealthConfiguration
    let registry: PrometheusCollectorRegistry
    let logger: Logger
    let isHealthy: @Sendable () -> Bool
    let page: PageRoutes?

    func run() async throws {
        let routes = HealthRoutes(registry: registry, isHealthy: isHealthy, page: page)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(HTTPConnectionHandler(respond: routes.answer))
                }
            }
            .bind(host: configuration.bindAddress, port: configuration.port).get()
        let address = "\(configuration.bindAddress):\(channel.localAddress?.port ?? configuration.port)"
        logger.info("health endpoint listening", metadata: ["address": "\(address)", "page": "\(page != nil)"])
        // The service group stops it first at a graceful shutdown: closing the listener ends `run`.
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
    }
}

/// What each path answers: the two health paths, then the page's.
struct HealthRoutes: Sendable {
    let registry: PrometheusCollectorRegistry
    let isHealthy: @Sendable () -> Bool
    let page: PageRoutes?

    func answer(_ request: WebRequest) async -> WebAnswer {
        switch request.path {
        case "/healthz", "/metrics":
            guard request.head.method == .GET || request.head.method == .HEAD else { return .full(.text(.methodNotAllowed, "GET only")) }
            if request.path == "/metrics" {
                return .full(WebResponse(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: registry.emitToBuffer()))
            }
            return .full(isHealthy() ? .text(.ok, "ok") : .text(.serviceUnavailable, "MQTT broker not connected"))
        default:
            return await page?.answer(request) ?? .full(.text(.notFound, "not found"))
        }
    }
}
