import BridgeTestSupport
import Testing
import UniFiSimulator

@Suite struct FingerprintCommandTests {
    @Test func printsTheFingerprintThatOpenSSLComputes() async throws {
        let simulator = UniFiSimulator()
        try await simulator.start()
        defer { Task { await simulator.stop() } }
        let result = try await BridgeProcess(["fingerprint", simulator.controllerURL]).finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("tls_fingerprint: \"\(simulator.certificate!.opensslFingerprint)\""), "\(result.stdout)")
        #expect(result.stdout.contains("self-signed"))
    }

    @Test func nothingListeningIsExitOneWithTheReason() async throws {
        let result = try await BridgeProcess(["fingerprint", "https://127.0.0.1:1"]).finish()
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("fingerprint: "))
    }
}

/// What only the console can tell about the configuration stops the start, naming the key.
@Suite struct UniFiStartTests {
    @Test func severalSitesAndNoneNamedStopTheStartListingThem() async throws {
        let simulator = UniFiSimulator()
        _ = simulator.addSite(name: "Holiday home", internalReference: "holiday")
        try await simulator.start()
        defer { Task { await simulator.stop() } }
        let file = try BridgeProcess.writeConfig("""
            unifi:
              controllers:
                - id: home
                  url: \(simulator.controllerURL)
                  api_key: sim-api-key
                  tls_fingerprint: "\(simulator.certificate!.opensslFingerprint)"
            """)
        let result = try await BridgeProcess(["run", "--config", file]).finish()
        #expect(result.status == 78)
        #expect(result.stderr.contains("configuration error: unifi.controllers[0].site: the controller has 2 sites"), "\(result.stderr)")
        #expect(result.stderr.contains("Holiday home"))
        #expect(!result.stderr.contains("sim-api-key"))
    }
}
