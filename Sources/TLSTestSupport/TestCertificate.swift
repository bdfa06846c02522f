#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText

/// A self-signed certificate and its key, made with the `openssl` CLI in a fresh temporary
/// directory, like a UniFi console's or a Pi-hole's: for test servers, simulators and the demo.
public struct TestCertificate: Sendable {
    public let directory: URL
    public let certificatePath: String
    public let privateKeyPath: String
    /// The certificate in PEM.
    public let certificatePEM: String
    public let privateKeyPEM: String
    /// `openssl x509 -fingerprint -sha256`, without its `sha256 Fingerprint=` label: an
    /// independent check of the bridge's own SHA-256.
    public let opensslFingerprint: String

    /// An EC P-256 certificate for `commonName` with SAN `IP:127.0.0.1,DNS:localhost`, valid
    /// for `days`.
    public static func generate(commonName: String = "UniFi Simulator", days: Int = 30) async throws -> TestCertificate {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("home2mqtt-cert-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificatePath = directory.appendingPathComponent("cert.pem").path
        let keyPath = directory.appendingPathComponent("key.pem").path
        try await OpenSSL.run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", String(days),
            "-subj", "/CN=\(commonName)/O=home2mqtt tests",
            "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ])
        let fingerprintLine = try await OpenSSL.run(["x509", "-in", certificatePath, "-noout", "-fingerprint", "-sha256"])
        guard let equals = fingerprintLine.firstIndex(of: "=") else {
            throw OpenSSL.Failure(arguments: ["x509", "-fingerprint"], output: fingerprintLine)
        }
        return TestCertificate(
            directory: directory,
            certificatePath: certificatePath,
            privateKeyPath: keyPath,
            certificatePEM: try String(contentsOfFile: certificatePath, encoding: .utf8),
            privateKeyPEM: try String(contentsOfFile: keyPath, encoding: .utf8),
            opensslFingerprint: fingerprintLine[fingerprintLine.index(after: equals)...]
                .trimmed())
    }

    /// Deletes the directory with the certificate and key.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
