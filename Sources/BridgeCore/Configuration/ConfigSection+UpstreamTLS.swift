#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UpstreamTrust

extension ConfigSection {
    /// The keys `upstreamTLS(for:)` reads, for a section's `allowing:` list.
    public static let upstreamTLSKeys: Set<String> = ["tls_fingerprint", "ca_file", "insecure"]

    /// How to trust an upstream's `https://` certificate, from `tls_fingerprint` (a pinned
    /// SHA-256 of the certificate: `home2mqtt fingerprint URL` prints it), `ca_file`, or
    /// `insecure: true`: at most one of them. An `http://` URL takes none.
    public func upstreamTLS(for url: String, legacyVerifyKey: String? = nil) throws(ConfigError) -> UpstreamTLS {
        var choices: [(key: String, tls: UpstreamTLS)] = []
        if let text = try string("tls_fingerprint") {
            do {
                choices.append(("tls_fingerprint", .pinned(try CertificateFingerprint(parsing: text))))
            } catch {
                throw ConfigError(key: keyPath("tls_fingerprint"), "\(error)")
            }
        }
        if let caFile = try string("ca_file") {
            do {
                try PEMCertificates.check(caFile)
            } catch {
                throw ConfigError(key: keyPath("ca_file"), error.message)
            }
            choices.append(("ca_file", .caFile(caFile)))
        }
        if try bool("insecure", default: false) { choices.append(("insecure", .insecure)) }
        if let legacyVerifyKey, try !bool(legacyVerifyKey, default: true) { choices.append((legacyVerifyKey, .insecure)) }
        guard choices.count <= 1 else {
            throw ConfigError(
                key: keyPath(choices[1].key), "cannot be combined with \(choices[0].key): choose one way to trust the certificate")
        }
        guard let choice = choices.first else { return .system }
        guard url.lowercased().hasPrefix("https:") else {
            throw ConfigError(key: keyPath(choice.key), "applies only to an https:// URL, and this one is '\(url)'")
        }
        return choice.tls
    }
}
