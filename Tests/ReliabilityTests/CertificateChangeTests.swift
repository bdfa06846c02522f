import BridgeTestSupport
import MQTTTestSupport
import SimulatorSupport
import TLSTestSupport
import Testing

/// Issue 11, upstream faults: a TLS certificate that changes while the bridge runs, for each
/// upstream that can speak HTTPS (every one: the TLS trust is shared, `UpstreamHTTP`). The
/// upstream restarts on the same port with another certificate, as an appliance does after its
/// certificate is renewed or a firmware update made a new one; the restart closes the connections
/// the bridge kept alive, so whatever it sends afterwards goes over a new handshake.
@Suite struct CertificateChangeTests {
    /// A pin names one certificate: another is refused before any request is sent (the logs say
    /// it does not match the pin, with both fingerprints), the other upstreams are not disturbed,
    /// and the upstream is back by itself, with at most one login, when the pinned one returns.
    @Test(arguments: Upstream.allCases)
    func aPinnedUpstreamRefusesANewCertificateUntilThePinnedOneIsBack(upstream: Upstream) async throws {
        let pinned = try TestCertificate.generate(commonName: "pinned")
        let other = try TestCertificate.generate(commonName: "renewed")
        defer { [pinned, other].forEach { $0.remove() } }
        let capture = LogCapture()
        let https = AllIntegrations.HTTPS(upstream: upstream, certificate: pinned.served, trust: ("tls_fingerprint", pinned.opensslFingerprint))
        try await AllIntegrations.run(logger: capture.logger("all"), https: https) { all, observer in
            let loginsBefore = Upstream.logins(all)
            let messagesBefore = observer.recorder.messages.count
            try await all.restart(upstream, serving: other.served)
            let requestsAfterChange = upstream.requestsOfAnyService(all)
            try await waitUntil("\(upstream) unavailable", timeout: .seconds(30)) { upstream.isAvailable(observer) == false }
            try await waitUntil("the pin mismatch logged", timeout: .seconds(30)) {
                capture.all.contains { $0.contains("does not match the pinned fingerprint") }
            }
            let mismatch = capture.all.first { $0.contains("does not match the pinned fingerprint") } ?? ""
            #expect(mismatch.contains(pinned.opensslFingerprint) && mismatch.contains(other.opensslFingerprint), "\(mismatch)")
            for bystander in Upstream.allCases where bystander != upstream {
                let answer = try await bystander.command(observer)
                #expect(answer["status"] == "ok", "\(bystander) while \(upstream) presents another certificate: \(answer)")
                #expect(bystander.isAvailable(observer) == true, "\(bystander) is available")
            }
            #expect(upstream.requestsOfAnyService(all) == requestsAfterChange, "no request past a handshake with another certificate")

            try await all.restart(upstream, serving: pinned.served)
            try await waitUntil("\(upstream) back", timeout: .seconds(60)) { upstream.isAvailable(observer) == true }
            let answer = try await upstream.command(observer)
            #expect(answer["status"] == "ok", "\(upstream) with its pinned certificate again: \(answer)")
            for bystander in Upstream.allCases where bystander != upstream {
                #expect(!bystander.wasUnavailable(observer, after: messagesBefore), "\(bystander) was never shown unavailable")
            }
            let loginsAfter = Upstream.logins(all)
            for loggingIn in [Upstream.pihole, .reef] {
                #expect(
                    loginsAfter[loggingIn]! - loginsBefore[loggingIn]! <= 1,
                    "\(loggingIn) logins: \(loginsBefore) → \(loginsAfter); \(capture.all.filter { $0.hasPrefix("warning") || $0.hasPrefix("info") })")
            }
        }
    }

    /// A CA file trusts whatever that CA signs: a new certificate from it is taken without a
    /// restart of the bridge, over new connections, and the upstream stays available.
    @Test(arguments: Upstream.allCases)
    func aCAFileTrustsANewCertificateOfTheSameCAWithoutARestart(upstream: Upstream) async throws {
        let authority = try TestCertificateAuthority(commonName: "home CA")
        defer { authority.remove() }
        let first = try authority.served(commonName: "first")
        let renewed = try authority.served(commonName: "renewed")
        let https = AllIntegrations.HTTPS(upstream: upstream, certificate: first, trust: ("ca_file", authority.certificatePath))
        try await AllIntegrations.run(https: https) { all, observer in
            try await all.restart(upstream, serving: renewed)
            let requestsAfterChange = upstream.requestsOfAnyService(all)
            let answer = try await upstream.command(observer)
            #expect(answer["status"] == "ok", "\(upstream) with a renewed certificate: \(answer)")
            // Requests reached the restarted listener: over new connections, with the new certificate.
            try await waitUntil("\(upstream) polled again", timeout: .seconds(30)) {
                upstream.requestsOfAnyService(all) >= requestsAfterChange + 3
            }
            #expect(upstream.isAvailable(observer) == true)
        }
    }
}

extension AllIntegrations {
    /// Restarts `upstream` (each of the Reef's three services) on its port, serving `certificate`.
    func restart(_ upstream: Upstream, serving certificate: ServedCertificate) async throws {
        switch upstream {
        case .pihole: try await piHole.restart(serving: certificate)
        case .unifi: try await unifi.restart(serving: certificate)
        case .reef: try await reef.restart(serving: certificate)
        }
    }
}

extension Upstream {
    /// Requests its simulator received, all three of the Reef's services counted.
    func requestsOfAnyService(_ all: AllIntegrations) -> Int {
        switch self {
        case .pihole, .unifi: requests(all)
        case .reef: all.reef.requests(.core).count + all.reef.requests(.temperature).count + all.reef.requests(.outlets).count
        }
    }
}

extension TestCertificate {
    var served: ServedCertificate { ServedCertificate(certificatePath: certificatePath, privateKeyPath: privateKeyPath) }
}

extension TestCertificateAuthority {
    /// A loopback server certificate this CA signs.
    func served(commonName: String) throws -> ServedCertificate {
        let issued = try issue(commonName: commonName, subjectAltName: "IP:127.0.0.1")
        return ServedCertificate(certificatePath: issued.certificatePath, privateKeyPath: issued.keyPath)
    }
}
