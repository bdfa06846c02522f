#if canImport(FoundationEssentials)
import BridgeRuntime
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// Reads the certificate an upstream presents, without trusting or verifying it: what
/// `home2mqtt fingerprint` shows and what a pin is compared with.
public enum CertificateProbe {
    /// Connects to `host:port`, completes a TLS handshake with verification off (SNI = `host`
    /// when it is a name), takes the leaf certificate and closes. At most `timeout` in all.
    public static func probe(host: String, port: Int, timeout: Duration = .seconds(5)) async throws(UpstreamError)
        -> ProbedCertificate
    {
        do {
            return try await handshake(host: host, port: port, timeout: timeout)
        } catch let error as UpstreamError {
            throw error
        } catch {
            throw UpstreamError(.probeFailed, "cannot read the certificate of \(host):\(port): \(error)")
        }
    }

    /// The same for an `https://` URL (port 443 unless it names one).
    public static func probe(url: String, timeout: Duration = .seconds(5)) async throws(UpstreamError)
        -> ProbedCertificate
    {
        let endpoint = try UpstreamEndpoint(url: url)
        return try await probe(host: endpoint.host, port: endpoint.port, timeout: timeout)
    }

    private static func handshake(host: String, port: Int, timeout: Duration) async throws -> ProbedCertificate {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .none
        let context = try NIOSSLContext(configuration: tls)
        let serverName = UpstreamEndpoint.isIPAddress(host) ? nil : host
        let group = MultiThreadedEventLoopGroup.singleton
        let eventLoop = group.next()
        let certificatePromise = eventLoop.makePromise(of: NIOSSLCertificate.self)
        let deadline = eventLoop.scheduleTask(in: timeout.timeAmount) {
            certificatePromise.fail(UpstreamError(.probeFailed, "no TLS handshake with \(host):\(port) within \(timeout)"))
        }
        defer { deadline.cancel() }

        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout.timeAmount)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    try sync.addHandler(PeerCertificateCatcher(promise: certificatePromise))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            certificatePromise.fail(error)
            throw error
        }
        defer { channel.close(promise: nil) }
        return try ProbedCertificate(try await certificatePromise.futureResult.get())
    }
}

/// Completes its promise with the peer's leaf certificate once the handshake is done, or with
/// the error that ended the connection first.
private final class PeerCertificateCatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let promise: EventLoopPromise<NIOSSLCertificate>

    init(promise: EventLoopPromise<NIOSSLCertificate>) {
        self.promise = promise
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent {
            do {
                guard let certificate = try context.pipeline.syncOperations.nioSSL_peerCertificate() else {
                    throw UpstreamError(.probeFailed, "the server sent no certificate")
                }
                promise.succeed(certificate)
            } catch {
                promise.fail(error)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(UpstreamError(.probeFailed, "the connection closed before the TLS handshake completed"))
        context.fireChannelInactive()
    }
}
