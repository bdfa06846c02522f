/// How an `https://` upstream is trusted. Plain `http://` upstreams ignore it.
public enum UpstreamTLS: Sendable, Equatable, CustomStringConvertible {
    /// The system's trust roots, full verification (hostname included).
    case system
    /// This PEM file's certificates as additional trust roots, full verification.
    case caFile(String)
    /// Exactly the certificate with this SHA-256 fingerprint, whoever issued it and whatever
    /// names it carries: what a self-signed appliance certificate needs.
    case pinned(CertificateFingerprint)
    /// No verification at all. Callers log a warning at every start.
    case insecure

    public static let `default` = UpstreamTLS.system

    public var description: String {
        switch self {
        case .system: "system trust roots"
        case .caFile(let path): "CA file \(path)"
        case .pinned(let fingerprint): "pinned certificate \(fingerprint)"
        case .insecure: "no certificate verification (insecure)"
        }
    }
}
