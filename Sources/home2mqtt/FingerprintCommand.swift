import ArgumentParser
#if canImport(FoundationEssentials)
import BridgeComposition
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import UpstreamHTTP

/// Prints an appliance's certificate fingerprint, to paste into `tls_fingerprint`.
struct FingerprintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fingerprint",
        abstract: "Print the SHA-256 fingerprint of an https:// appliance's certificate, with its subject and validity.",
        discussion: """
            Compare it with what the appliance itself shows (UniFi OS: Settings → Control Plane → Console; \
            a Pi-hole: `openssl x509 -in /etc/pihole/tls.pem -noout -fingerprint -sha256`) before you trust it: \
            whoever answers at that address now is who gets pinned.
            """)

    @Argument(help: "The appliance's address: https://192.168.1.1 or https://pi.hole:443.")
    var url: String

    @Option(help: "Seconds to wait for the TLS handshake.")
    var timeout: Int = 5

    func run() async throws {
        let probed: ProbedCertificate
        do {
            probed = try await CertificateProbe.probe(url: url, timeout: .seconds(timeout))
        } catch {
            writeNow("fingerprint: \(error)\n", to: STDERR_FILENO)
            throw ExitCode.failure
        }
        print("tls_fingerprint: \"\(probed.fingerprint)\"")
        print("subject:  \(probed.subject ?? "(none)")")
        print("issuer:   \(probed.issuer ?? "(none)")\(probed.subject == probed.issuer ? " (self-signed)" : "")")
        print("valid:    \(probed.notValidBefore.formatted(.iso8601)) to \(probed.notValidAfter.formatted(.iso8601))")
    }
}
