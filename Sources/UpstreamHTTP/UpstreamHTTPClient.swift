import BridgeRuntime
import NIOCore
import NIOHTTP1
import NIOSSL

/// The HTTP/1.1 client every upstream client talks through: kept-alive connections on the
/// bridge's event loop (`ConnectionPool`), one exchange at a time on each, the whole answer
/// collected (or a successful body handed over as it arrives).
///
/// Its own rather than AsyncHTTPClient's, whose general machinery (a request state machine, a
/// pool state machine, a task and several futures per request) cost far more per request than
/// a bare exchange on a NIO channel, for features the bridge does not need: the upstreams are
/// appliances on a home network, HTTP/1.1, no redirects followed, no proxies, no cookies, no
/// compression.
public final class UpstreamHTTPClient: Sendable {
    /// Where its connections live.
    private let loop: any EventLoop
    /// Touched on `loop` alone.
    private let pool: NIOLoopBoundBox<ConnectionPool>
    /// What requests' deadlines are measured on.
    private let clock: any BridgeClock

    /// A connect that takes longer fails: the upstreams are on the home's network.
    static let connectTimeout: Duration = .seconds(5)
    /// AsyncHTTPClient's default: a poll every few seconds keeps its connection, a connection
    /// nobody asked for in a minute is given back.
    public static let idleTimeout: Duration = .seconds(60)

    /// No TLS for `http://` URLs; `https://` ones are trusted as `tls` says (`nil`: refused).
    /// Its connections live on `loop`: the bridge's, but for a test's client of a simulator, which
    /// keeps off the one loop that every bridge a test process runs shares.
    /// Connections idle for `idleTimeout` are closed. Requests' deadlines are on `clock`: the
    /// bridge's, so that a test on virtual time knows when one is in flight (the connect timeout
    /// and the idle timeout stay on the machine's time).
    public init(
        tls: TLSConfiguration?, loop: any EventLoop = BridgeEventLoop.loop, idleTimeout: Duration = idleTimeout,
        clock: any BridgeClock = .system
    ) throws {
        self.loop = loop
        pool = .makeBoxSendingValue(
            ConnectionPool(
                loop: loop, tls: try tls.map(NIOSSLContext.init(configuration:)), connectTimeout: Self.connectTimeout.timeAmount,
                idleTimeout: idleTimeout.timeAmount),
            eventLoop: loop)
        self.clock = clock
    }

    /// A client for `baseURL`: no TLS for `http://`; for `https://`, trust as `tls` says. The caller
    /// owns it and must `shutdown()` it. Its connections live on `BridgeEventLoop.loop`, its
    /// requests' deadlines on `clock`.
    ///
    /// For `.pinned`, the server's certificate is read first and compared with the pin (a mismatch
    /// throws, showing both fingerprints); the client then trusts exactly that certificate, as
    /// its only trust root (hostname not checked: appliance certificates rarely name the address
    /// they are reached by), so that any later connection presenting another certificate fails
    /// verification in the TLS handshake.
    public static func make(baseURL: String, tls: UpstreamTLS, clock: any BridgeClock = .system) async throws(UpstreamError)
        -> UpstreamHTTPClient
    {
        let endpoint = try UpstreamEndpoint(url: baseURL)
        let configuration = endpoint.isHTTPS ? try await tlsConfiguration(tls, endpoint: endpoint) : nil
        do {
            return try UpstreamHTTPClient(tls: configuration, clock: clock)
        } catch {
            throw UpstreamError(.unusableSettings, "the TLS settings for \(baseURL) cannot be used: \(error)")
        }
    }

    /// One exchange: the answer and the whole of its body (at most `maxBodySize` bytes), all
    /// within `timeout`, connecting included. With `successBodyTo`, a 2xx body is handed over as
    /// it arrives and the answer's `body` stays empty. Cancelled with the calling task, which then
    /// throws `CancellationError`; nothing is sent for a task cancelled before.
    ///
    /// On the caller's executor (`nonisolated(nonsending)`): called from the bridge's loop, as
    /// every upstream client's actor is, the request is written at once, without a hop.
    public nonisolated(nonsending) func collect(
        _ method: HTTPMethod, _ url: String, headers: HTTPHeaders, body: ByteBuffer?, timeout: Duration, maxBodySize: Int,
        successBodyTo: ResponseBodyChunks? = nil
    ) async throws -> CollectedResponse {
        try Task.checkCancellation()
        let target = try RequestTarget(url)
        var headers = headers
        headers.replaceOrAdd(name: "Host", value: target.hostHeader)
        if !headers.contains(name: "User-Agent") { headers.add(name: "User-Agent", value: Product.userAgent) }
        if let body {
            headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
        } else if method == .POST || method == .PUT || method == .PATCH {
            headers.replaceOrAdd(name: "Content-Length", value: "0")
        }
        let exchange = Exchange(
            target: target, head: HTTPRequestHead(version: .http1_1, method: method, uri: target.pathAndQuery, headers: headers),
            body: body, maxBodySize: maxBodySize, successBodyTo: successBodyTo, loop: loop)
        let (loop, pool, clock) = (loop, pool, clock)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let start: @Sendable () -> Void = {
                    guard exchange.begin(deliver: { continuation.resume(with: $0) }) else { return }
                    exchange.startDeadline(timeout, on: clock)
                    pool.value.start(exchange)
                }
                // At once when called on the loop (a bridge task), else as its next job.
                if loop.inEventLoop { start() } else { loop.execute(start) }
            }
        } onCancel: {
            loop.execute { exchange.cancel() }
        }
    }

    /// Closes every connection; what waits, and whatever is asked from now on, fails.
    public func shutdown() async throws {
        let pool = pool
        try await loop.flatSubmit { pool.value.shutDown() }.get()
    }

    static func tlsConfiguration(_ tls: UpstreamTLS, endpoint: UpstreamEndpoint) async throws(UpstreamError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .system:
            break
        case .caFile(let path):
            do {
                configuration.additionalTrustRoots = [.certificates(try PEMCertificates.read(path))]
            } catch {
                throw UpstreamError(.unreadableCAFile(path: path), error.message)
            }
        case .insecure:
            configuration.certificateVerification = .none
        case .pinned(let expected):
            let presented = try await CertificateProbe.probe(host: endpoint.host, port: endpoint.port)
            guard presented.fingerprint == expected else {
                throw UpstreamError.mismatch(expected: expected, presented: presented.fingerprint, host: "\(endpoint.host):\(endpoint.port)")
            }
            // BoringSSL accepts a lone trust root only when it is self-signed (no partial chains):
            // say so now rather than fail every handshake later.
            guard presented.certificate.subjectName == presented.certificate.issuerName else {
                throw UpstreamError(
                    .unpinnableCertificate,
                    "the certificate of \(endpoint.host):\(endpoint.port) is issued by \(presented.issuer ?? "a CA"), not self-signed: "
                        + "trust that CA with a CA file instead of a pinned fingerprint")
            }
            configuration.trustRoots = .certificates([presented.certificate])
            configuration.certificateVerification = .noHostnameVerification
        }
        return configuration
    }
}
