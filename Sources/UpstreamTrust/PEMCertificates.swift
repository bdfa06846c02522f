import NIOSSL

/// A PEM file of certificates: a `ca_file` to trust, or a client's `cert_file`. Checked when the
/// configuration is loaded, so a wrong file (a key, a directory, an empty or garbled file) stops
/// the start with a message naming its key, instead of failing every TLS handshake later.
public enum PEMCertificates {
    /// Throws unless `path` holds at least one PEM certificate.
    public static func check(_ path: String) throws(TrustSettingError) {
        _ = try read(path)
    }

    public static func read(_ path: String) throws(TrustSettingError) -> [NIOSSLCertificate] {
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw TrustSettingError("cannot read '\(path)' as PEM certificates: \(error)")
        }
        guard !certificates.isEmpty else {
            throw TrustSettingError("'\(path)' holds no PEM certificate")
        }
        return certificates
    }
}
