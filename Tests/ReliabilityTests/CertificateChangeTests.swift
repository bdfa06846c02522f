import BridgeTestSupport
import MQTTTestSupport
import SimulatorSupport
import Testing

/// Issue 11, upstream faults: a TLS certificate that changes while the bridge runs, for each
/// upstream (each can speak HTTPS: the TLS trust is shared, `UpstreamHTTP`) and each way of
/// trusting it. The upstream restarts on the same port with another certificate, as an appliance
/// does after its certificate is renewed or a firmware update made a new one; the restart closes
/// the connections the bridge kept alive, so whatever it sends afterwards needs a new handshake.
@Suite struct CertificateChangeTests {
    /// A certificate the bridge does not trust (another one under a pin, one of another CA under a
    /// CA file) is refused before any request is sent and the log says why (under a pin: both
    /// fingerprints); the other upstreams are not disturbed; the upstream is back by itself, with
    /// at most one login, when the trusted certificate returns.
    @Test(arguments: Upstream.allCases, Trust.allCases)
    func anUntrustedCertificateIsRefusedUntilTheTrustedOneIsBack(upstream: Upstream, trust: Trust) async throws {
        let certificates = try await CertificateSet(trust)
        defer { certificates.remove() }
        let capture = LogCapture()
        let https = AllIntegrations.HTTPS(upstream: upstream, certificate: certificates.trusted, trust: certificates.setting)
        try await AllIntegrations.run(logger: capture.logger("all"), https: https) { all, observer in
            let loginsBefore = Upstream.logins(all)
            let messagesBefore = observer.recorder.messages.count
            try await all.restart(upstream, serving: certificates.untrusted)
            let requestsAfterChange = upstream.requestsOfAnyService(all)
            try await waitUntil("\(upstream) unavailable", timeout: .seconds(30)) { upstream.isAvailable(observer) == false }
            try await waitUntil("the refusal logged", timeout: .seconds(30)) {
                capture.all.contains { line in certificates.refusalWords.allSatisfy(line.contains) }
            }
            for bystander in Upstream.allCases where bystander != upstream {
                let answer = try await bystander.command(observer)
                #expect(answer["status"] == "ok", "\(bystander) while \(upstream) presents another certificate: \(answer)")
                #expect(bystander.isAvailable(observer) == true, "\(bystander) is available")
            }
            #expect(upstream.requestsOfAnyService(all) == requestsAfterChange, "no request past a handshake with another certificate")

            let connectionsBeforeReturn = upstream.connections(all)
            try await all.restart(upstream, serving: certificates.trusted)
            try await waitUntil("\(upstream) back", timeout: .seconds(60)) { upstream.isAvailable(observer) == true }
            let answer = try await upstream.command(observer)
            #expect(answer["status"] == "ok", "\(upstream) with its trusted certificate again: \(answer)")
            #expect(upstream.connections(all) - connectionsBeforeReturn == 1, "\(upstream) connected once when trusted again")
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

    /// A CA file trusts whatever that CA signs: a renewed certificate from it is taken without a
    /// restart of the bridge, over new connections, and the upstream goes on.
    @Test(arguments: Upstream.allCases)
    func aCAFileTrustsARenewedCertificateOfTheSameCAWithoutARestart(upstream: Upstream) async throws {
        let certificates = try await CertificateSet(.caFile)
        defer { certificates.remove() }
        let renewed = try #require(certificates.renewed)
        let https = AllIntegrations.HTTPS(upstream: upstream, certificate: certificates.trusted, trust: certificates.setting)
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
    /// How many times the bridge connected to it: logins to the Pi-hole and the Reef, and the
    /// request a UniFi connection starts with (`GET /v1/info`).
    func connections(_ all: AllIntegrations) -> Int {
        switch self {
        case .pihole: all.piHole.loginCount
        case .unifi: all.unifi.requestCount(method: "GET", pathContaining: "/v1/info")
        case .reef: all.reef.loginCount
        }
    }

    /// Requests its simulator received, all three of the Reef's services counted.
    func requestsOfAnyService(_ all: AllIntegrations) -> Int {
        switch self {
        case .pihole, .unifi: requests(all)
        case .reef: all.reef.requests(.core).count + all.reef.requests(.temperature).count + all.reef.requests(.outlets).count
        }
    }
}
