import AsyncHTTPClient
import NIOSSL

/// Makes the `HTTPClient` every upstream client talks through, with its TLS trust set up.
public enum UpstreamHTTPClient {
    /// An `HTTPClient` for `baseURL`: no TLS for `http://`; for `https://`, trust as `tls` says.
    /// The caller owns it and must `shutdown()` it. Its connections live on `BridgeEventLoop.loop`.
    ///
    /// For `.pinned`, the server's certificate is read first and compared with the pin
    /// (a mismatch throws, showing both fingerprints); the client then trusts exactly that
    /// certificate. AsyncHTTPClient has no hook for a custom verification callback, so the pin
    /// cannot be checked on each connection; instead the pinned certificate becomes the only
    /// trust root (hostname not checked: appliance certificates rarely name the address they
    /// are reached by), and any later connection presenting another certificate fails
    /// verification in the TLS handshake.
    public static func make(baseURL: String, tls: UpstreamTLS, requestTimeout: Duration) async throws(UpstreamTLSError)
        -> HTTPClient
    {
        let endpoint = try UpstreamEndpoint(url: baseURL)
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(5), read: requestTimeout.timeAmount)
        // Every upstream client has its own backoff: a refused connect should fail at once
        // instead of being retried inside AsyncHTTPClient until the deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        // The bridge bootstraps no tracer: with the default no-op one, AsyncHTTPClient still made
        // a span for every request, its name printed from the method through reflection: 4.5 % of
        // a Pi-hole pause's instructions (issue 10, docs/benchmarks.md).
        configuration.tracing.tracer = nil
        if endpoint.isHTTPS {
            configuration.tlsConfiguration = try await tlsConfiguration(tls, endpoint: endpoint)
        }
        return HTTPClient(eventLoopGroupProvider: .shared(BridgeEventLoop.loop), configuration: configuration)
    }

    static func tlsConfiguration(_ tls: UpstreamTLS, endpoint: UpstreamEndpoint) async throws(UpstreamTLSError)
        -> TLSConfiguration
    {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .system:
            break
        case .caFile(let path):
            configuration.additionalTrustRoots = [.certificates(try PEMCertificates.read(path))]
        case .insecure:
            configuration.certificateVerification = .none
        case .pinned(let expected):
            let presented = try await CertificateProbe.probe(host: endpoint.host, port: endpoint.port)
            guard presented.fingerprint == expected else {
                throw UpstreamTLSError.mismatch(expected: expected, presented: presented.fingerprint, host: "\(endpoint.host):\(endpoint.port)")
            }
            // BoringSSL accepts a lone trust root only when it is self-signed (no partial chains):
            // say so now rather than fail every handshake later.
            guard presented.certificate.subjectName == presented.certificate.issuerName else {
                throw UpstreamTLSError(
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
