import Hummingbird
import HummingbirdTLS
import Logging
import NIOSSL
import TLSTestSupport

/// A loopback HTTPS server answering every request `200 ok`, serving `certificate`, for the
/// length of `body`.
func withHTTPSServer<T>(
    _ certificate: TestCertificate, _ body: (_ baseURL: String) async throws -> T
) async throws -> T {
    let router = Router()
    router.get("/") { _, _ in "ok" }
    let tls = TLSConfiguration.makeServerConfiguration(
        certificateChain: try NIOSSLCertificate.fromPEMFile(certificate.certificatePath).map { .certificate($0) },
        privateKey: .privateKey(try NIOSSLPrivateKey(file: certificate.privateKeyPath, format: .pem)))
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    // Cancelling the server at the end logs errors that mean nothing here.
    var quiet = Logger(label: "HTTPSTestServer")
    quiet.logLevel = .critical
    let app = Application(
        router: router, server: try .tls(.http1(), tlsConfiguration: tls),
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        },
        logger: quiet)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        defer { group.cancelAll() }
        return try await body("https://127.0.0.1:\(port)")
    }
}
