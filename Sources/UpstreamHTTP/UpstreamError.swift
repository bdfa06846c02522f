import NIOSSL

/// The one error type of this module: the upstreams' TLS trust, and an HTTP exchange that went
/// wrong before any HTTP status could say so. A refused TLS handshake is not among them: NIOSSL's
/// own error passes through, and `trustFailure` names it.
public struct UpstreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The server presented another certificate than the pinned one.
        case fingerprintMismatch(expected: CertificateFingerprint, presented: CertificateFingerprint)
        /// A pin was given for a certificate that is not self-signed (only those can be pinned).
        case unpinnableCertificate
        /// The CA file could not be read or holds no certificate.
        case unreadableCAFile(path: String)
        /// Connecting or the handshake failed, or the server sent no certificate.
        case probeFailed
        /// BoringSSL would not take the TLS settings.
        case unusableSettings
        /// The URL is not an `http://` or `https://` URL with a host.
        case invalidURL
        /// The upstream could not be connected to (refused, unreachable, no answer to the connect).
        case connectFailed
        /// No complete answer within the exchange's time limit.
        case timedOut
        /// The connection closed (or was reset) before the answer was complete.
        case connectionClosed
        /// What came back was not an HTTP/1.1 answer (a garbage status line, a chunk size that is
        /// no number, headers past the parser's limit).
        case malformedResponse
        /// The answer was larger than the caller takes.
        case bodyTooLarge
        /// The client was shut down.
        case shutDown
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func mismatch(expected: CertificateFingerprint, presented: CertificateFingerprint, host: String) -> Self {
        UpstreamError(
            .fingerprintMismatch(expected: expected, presented: presented),
            "certificate of \(host) does not match the pinned fingerprint: expected \(expected), presented \(presented)")
    }

    /// Whether it says the upstream's certificate cannot be trusted as configured.
    public var isTrustFailure: Bool {
        switch code {
        case .fingerprintMismatch, .unpinnableCertificate, .unreadableCAFile, .probeFailed, .unusableSettings:
            true
        case .invalidURL, .connectFailed, .timedOut, .connectionClosed, .malformedResponse, .bodyTooLarge, .shutDown:
            false
        }
    }
}

extension UpstreamError {
    /// The words for `error` when it is a certificate-trust failure (a pin mismatch, a handshake
    /// refused), whichever layer threw it; `nil` for anything else.
    public static func trustFailure(_ error: any Error) -> String? {
        switch error {
        case let error as UpstreamError where error.isTrustFailure: error.message
        case is NIOSSLError, is BoringSSLError: "TLS handshake failed (certificate not trusted or changed?): \(error)"
        default: nil
        }
    }
}
