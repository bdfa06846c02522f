#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A private certificate authority made at test time with the `openssl` CLI, and the server and
/// client certificates it signs: for a TLS broker listener, its clients, and the ones it must refuse.
public struct TestCertificateAuthority: Sendable {
    /// The CA's certificate (PEM): what a client trusts as `ca_file`.
    public let certificatePath: String
    private let keyPath: String
    private let directory: URL

    public init(commonName: String = "home2mqtt test CA") async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("home2mqtt-ca-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificatePath = directory.appendingPathComponent("ca.pem").path
        keyPath = directory.appendingPathComponent("ca-key.pem").path
        try await OpenSSL.run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "30", "-subj", "/CN=\(commonName)",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }

    /// A certificate signed by this CA for `commonName`, with `subjectAltName` (`IP:127.0.0.1`
    /// for a loopback server; `nil` for a client). Files are readable by all: mosquitto reads
    /// them as the unprivileged user it becomes when started by root.
    public func issue(commonName: String, subjectAltName: String? = nil) async throws -> (certificatePath: String, keyPath: String) {
        let name = "\(commonName)-\(UUID().uuidString.prefix(8))"
        let key = directory.appendingPathComponent("\(name)-key.pem").path
        let request = directory.appendingPathComponent("\(name).csr").path
        let certificate = directory.appendingPathComponent("\(name).pem").path
        try await OpenSSL.run([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", request, "-subj", "/CN=\(commonName)",
        ])
        let extensions = directory.appendingPathComponent("\(name).ext")
        try (subjectAltName.map { "subjectAltName=\($0)\n" } ?? "basicConstraints=CA:FALSE\n").write(to: extensions, atomically: true, encoding: .utf8)
        try await OpenSSL.run([
            "x509", "-req", "-in", request, "-CA", certificatePath, "-CAkey", keyPath, "-CAcreateserial",
            "-days", "30", "-extfile", extensions.path, "-out", certificate,
        ])
        for path in [directory.path, key, certificate, certificatePath] {
            try FileManager.default.setAttributes([.posixPermissions: path == directory.path ? 0o755 : 0o644], ofItemAtPath: path)
        }
        return (certificate, key)
    }

    /// Deletes the CA and everything it issued.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
