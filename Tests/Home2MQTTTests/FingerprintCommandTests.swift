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
