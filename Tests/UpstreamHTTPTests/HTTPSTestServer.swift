import Hummingbird
import Logging
import SimulatorSupport
import TLSTestSupport

/// A loopback HTTPS server answering every request `200 ok`, serving `certificate`, for the
/// length of `body`.
func withHTTPSServer<T>(
    _ certificate: TestCertificate, _ body: (_ baseURL: String) async throws -> T
) async throws -> T {
    let router = Router()
    router.get("/") { _, _ in "ok" }
    let served = ServedCertificate(certificatePath: certificate.certificatePath, privateKeyPath: certificate.privateKeyPath)
    return try await withTestListener(router, certificate: served) { try await body($0) }
}

/// `router` served on loopback (HTTPS with `certificate`) for the length of `body`, which gets its
/// base URL. A `SimulatorListener`, so that the end is a graceful shutdown: cancelling a server
/// that has accepted a connection not yet handed out traps in NIO (apple/swift-nio#3481), as
/// seen when a loaded machine's client gave up on a handshake just before the test ended.
func withTestListener<T>(
    _ router: Router<BasicRequestContext>, certificate: ServedCertificate? = nil, _ body: (_ baseURL: String) async throws -> T
) async throws -> T {
    var quiet = Logger(label: "UpstreamHTTPTests")
    quiet.logLevel = .critical
    let listener = SimulatorListener(name: "test server", responder: router.buildResponder(), logger: quiet)
    try await listener.start(certificate: certificate)
    do {
        let result = try await body(listener.baseURL)
        await listener.stop()
        return result
    } catch {
        await listener.stop()
        throw error
    }
}
