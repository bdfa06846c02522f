#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOSSL

/// The leaf certificate an upstream presented, as ``CertificateProbe`` read it.
public struct ProbedCertificate: Sendable {
    public let certificate: NIOSSLCertificate
    public let der: [UInt8]
    public let fingerprint: CertificateFingerprint
    /// Distinguished names as `CN=…, O=…`; `nil` when the certificate has none.
    public let subject: String?
    public let issuer: String?
    public let notValidBefore: Date
    public let notValidAfter: Date

    init(_ certificate: NIOSSLCertificate) throws {
        self.certificate = certificate
        der = try certificate.toDERBytes()
        fingerprint = CertificateFingerprint(der: der)
        subject = Self.distinguishedName(certificate.subjectName)
        issuer = Self.distinguishedName(certificate.issuerName)
        notValidBefore = Date(timeIntervalSince1970: TimeInterval(certificate.notValidBefore))
        notValidAfter = Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter))
    }

    private static func distinguishedName(_ names: [SSLCertificateName]) -> String? {
        guard !names.isEmpty else { return nil }
        return names.map { "\(label($0.type))=\($0.value)" }.joined(separator: ", ")
    }

    private static func label(_ type: SSLCertificateNameType) -> String {
        switch type {
        case .commonName: "CN"
        case .organization: "O"
        case .organizationalUnit: "OU"
        case .country: "C"
        case .state: "ST"
        case .city: "L"
        case .emailAddress: "emailAddress"
        case .userId: "UID"
        default: "?"
        }
    }
}
