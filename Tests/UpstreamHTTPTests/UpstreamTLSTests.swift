import Foundation
import NIOCore
import Testing
import TLSTestSupport
import UpstreamHTTP

/// Trust decisions against a real HTTPS server with a self-signed certificate made now.
@Suite struct UpstreamTLSTests {
    let certificate: TestCertificate
    let otherCertificate: TestCertificate

    init() async throws {
        certificate = try await TestCertificate.generate(commonName: "console")
        otherCertificate = try await TestCertificate.generate(commonName: "impostor")
    }

    /// `GET /` through a client made for `tls`; the body on success.
    private func get(_ baseURL: String, tls: UpstreamTLS) async throws -> String {
        let client = try await UpstreamHTTPClient.make(baseURL: baseURL, tls: tls)
        do {
            let response = try await client.collect(.GET, baseURL + "/", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1024)
            try await client.shutdown()
            return String(buffer: response.body)
        } catch {
            try await client.shutdown()
            throw error
        }
    }

    @Test func probeReadsTheServedCertificate() async throws {
        try await withHTTPSServer(certificate) { baseURL in
            let probed = try await CertificateProbe.probe(url: baseURL)
            #expect(probed.fingerprint.description == certificate.opensslFingerprint)
            #expect(probed.subject?.contains("CN=console") == true)
            #expect(probed.issuer == probed.subject)
            #expect(probed.notValidBefore < Date() && Date() < probed.notValidAfter)
        }
    }

    @Test func pinnedFingerprintIsAccepted() async throws {
        try await withHTTPSServer(certificate) { baseURL in
            let pin = try CertificateFingerprint(parsing: certificate.opensslFingerprint)
            let body = try await get(baseURL, tls: .pinned(pin))
            #expect(body == "ok")
        }
    }

    @Test func wrongPinIsRefusedShowingBothFingerprints() async throws {
        try await withHTTPSServer(certificate) { baseURL in
            let wrong = try CertificateFingerprint(parsing: otherCertificate.opensslFingerprint)
            await #expect {
                _ = try await get(baseURL, tls: .pinned(wrong))
            } throws: { error in
                guard let error = error as? UpstreamError, case .fingerprintMismatch = error.code else { return false }
                return error.message.contains(otherCertificate.opensslFingerprint)
                    && error.message.contains(certificate.opensslFingerprint)
            }
        }
    }

    @Test func pinnedClientRefusesAnotherCertificateLater() async throws {
        try await withHTTPSServer(certificate) { pinnedURL in
            try await withHTTPSServer(otherCertificate) { otherURL in
                let pin = try CertificateFingerprint(parsing: certificate.opensslFingerprint)
                let client = try await UpstreamHTTPClient.make(baseURL: pinnedURL, tls: .pinned(pin))
                let pinned = try? await client.collect(.GET, pinnedURL + "/", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1024)
                let other = try? await client.collect(.GET, otherURL + "/", headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1024)
                try await client.shutdown()
                #expect(pinned?.status == .ok)
                #expect(other == nil, "a certificate other than the pinned one must fail verification")
            }
        }
    }

    @Test func caFileIsAccepted() async throws {
        try await withHTTPSServer(certificate) { baseURL in
            let body = try await get(baseURL, tls: .caFile(certificate.certificatePath))
            #expect(body == "ok")
        }
    }

    @Test func unreadableCAFileNamesIt() async throws {
        await #expect {
            _ = try await UpstreamHTTPClient.make(
                baseURL: "https://127.0.0.1:1", tls: .caFile("/nonexistent/ca.pem"))
        } throws: { error in
            (error as? UpstreamError)?.message.contains("/nonexistent/ca.pem") == true
        }
    }

    @Test func systemTrustRefusesTheSelfSignedCertificate() async throws {
        try await withHTTPSServer(certificate) { baseURL in
            let refused = (try? await get(baseURL, tls: .system)) == nil
            #expect(refused, "the system roots must not trust a self-signed certificate")
        }
    }

    @Test func insecureAcceptsAnything() async throws {
        try await withHTTPSServer(certificate) { baseURL in
            let body = try await get(baseURL, tls: .insecure)
            #expect(body == "ok")
        }
    }
}
