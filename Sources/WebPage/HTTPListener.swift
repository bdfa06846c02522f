import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle

/// The bridge's HTTP listener (`bridge.health`, and the page on it): each connection answered by
/// `respond`, until a graceful shutdown closes it.
public struct HTTPListener: Service {
    let host: String
    let port: Int
    let logger: Logger
    let respond: @Sendable (WebRequest) async -> WebAnswer

    public init(host: String, port: Int, logger: Logger, respond: @escaping @Sendable (WebRequest) async -> WebAnswer) {
        self.host = host
        self.port = port
        self.logger = logger
        self.respond = respond
    }

    public func run() async throws {
        let respond = respond
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(HTTPConnectionHandler(respond: respond))
                }
            }
            .bind(host: host, port: port).get()
        logger.info("HTTP listener listening", metadata: ["address": "\(host):\(channel.localAddress?.port ?? port)"])
        // The service group stops it first at a graceful shutdown: closing the listener ends `run`.
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
    }
}
