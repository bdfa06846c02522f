import NIOSSL
/// The one error type of this module's TLS helpers.
public struct UpstreamTLSError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A fingerprint as typed by a user could not be understood.
        case malformedFingerprint
        /// The server presented another certificate than the pinned one.
        case fingerprintMismatch(expected: CertificateFingerprint, presented: CertificateFingerprint)
        /// A pin was given for a certificate that is not self-signed (only those can be pinned).
        case unpinnableCertificate
        /// The CA file could not be read or holds no certificate.
        case unreadableCAFile(path: String)
        /// The URL is not an `http://` or `https://` URL with a host.
        case invalidURL
        /// Connecting or the handshake failed, or the server sent no certificate.
        case probeFailed
        /// BoringSSL would not take the TLS settings.
        case unusableSettings
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func mismatch(expected: CertificateFingerprint, presented: CertificateFingerprint, host: String) -> Self {
        UpstreamTLSError(
            .fingerprintMismatch(expected: expected, presented: presented),
            "certificate of \(host) does not match the pinned fingerprint: expected \(expected), presented \(presented)")
    }
}

extension UpstreamTLSError {
    /// The words for `error` when it is a certificate-trust failure (a pin mismatch, a handshake
    /// refused), whichever layer threw it; `nil` for anything else.
    public static func trustFailure(_ error: any Error) -> String? {
        switch error {
        case let error as UpstreamTLSError: error.message
        case is NIOSSLError, is BoringSSLError: "TLS handshake failed (certificate not trusted or changed?): \(error)"
        default: nil
        }
    }
}
