import SimulatorSupport
import TLSTestSupport

/// How the bridge trusts an upstream's certificate in the certificate tests.
enum Trust: String, Sendable, CaseIterable {
    /// `tls_fingerprint`: exactly one self-signed certificate.
    case pin
    /// `ca_file`: whatever that CA signs.
    case caFile
}

/// The certificates one certificate test serves, made at test time with openssl.
struct CertificateSet: Sendable {
    /// What the upstream serves first, and the bridge trusts.
    let trusted: ServedCertificate
    /// Another certificate the bridge must refuse: another self-signed one under a pin, one of
    /// another CA under a CA file.
    let untrusted: ServedCertificate
    /// The configuration key and value that trust `trusted`.
    let setting: (key: String, value: String)
    /// What a log line about the refusal must hold.
    let refusalWords: [String]
    /// Another certificate the bridge trusts as it trusts `trusted`: the same CA's renewal under a
    /// CA file; none under a pin.
    let renewed: ServedCertificate?
    let remove: @Sendable () -> Void

    init(_ trust: Trust) async throws {
        switch trust {
        case .pin:
            let pinned = try await TestCertificate.generate(commonName: "pinned")
            let other = try await TestCertificate.generate(commonName: "another")
            trusted = pinned.served
            untrusted = other.served
            setting = ("tls_fingerprint", pinned.opensslFingerprint)
            // Both fingerprints, to compare with what the appliance shows.
            refusalWords = ["does not match the pinned fingerprint", pinned.opensslFingerprint, other.opensslFingerprint]
            renewed = nil
            remove = { [pinned, other].forEach { $0.remove() } }
        case .caFile:
            let authority = try await TestCertificateAuthority(commonName: "home CA")
            let stranger = try await TestCertificateAuthority(commonName: "another CA")
            trusted = try await authority.served(commonName: "first")
            untrusted = try await stranger.served(commonName: "stranger")
            setting = ("ca_file", authority.certificatePath)
            refusalWords = ["certificate not trusted"]
            renewed = try await authority.served(commonName: "renewed")
            remove = { [authority, stranger].forEach { $0.remove() } }
        }
    }
}

extension TestCertificate {
    var served: ServedCertificate { ServedCertificate(certificatePath: certificatePath, privateKeyPath: privateKeyPath) }
}

extension TestCertificateAuthority {
    /// A loopback server certificate this CA signs.
    func served(commonName: String) async throws -> ServedCertificate {
        let issued = try await issue(commonName: commonName, subjectAltName: "IP:127.0.0.1")
        return ServedCertificate(certificatePath: issued.certificatePath, privateKeyPath: issued.keyPath)
    }
}
