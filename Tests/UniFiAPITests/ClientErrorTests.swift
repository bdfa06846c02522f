import Foundation
import Testing
import UniFiAPI
import UniFiSimulator
import UpstreamHTTP

@Suite("UniFiClient errors against the simulator")
struct ClientErrorTests {
    @Test func wrongKeyIsUnauthorized() async throws {
        try await withUniFi(clientKey: "wrong key") { f in
            let error = await unifiError { _ = try await f.client.info() }
            #expect(error?.code == .unauthorized)
            #expect(error?.status == 401)
            #expect(error?.message.contains("the API key was refused") == true)
            #expect(error.map { String(describing: $0).contains("wrong key") } == false)
            #expect(f.simulator.requests.last?.header("x-api-key") == "wrong key")
        }
    }

    @Test func unknownRuleIsNotFound() async throws {
        try await withUniFi { f in
            let error = await unifiError { _ = try await f.client.aclRule(site: f.site, id: UUID().uuidString) }
            #expect(error?.code == .notFound)
            #expect(error?.apiCode == "api.resource-not-found")
            #expect(f.simulator.requestCount() == 1)
        }
    }

    @Test func siteIDMustBeAUUID() async throws {
        try await withUniFi { f in
            let error = await unifiError { _ = try await f.client.aclRules(site: "default") }
            #expect(error?.code == .badRequest)
            #expect(error?.apiCode == "api.request.argument-type-mismatch")
        }
    }

    @Test func rateLimitSurfacesRetryAfter() async throws {
        try await withUniFi { f in
            f.simulator.inject(.rateLimited(retryAfterSeconds: 7), pathContaining: "/acl-rules")
            let error = await unifiError { _ = try await f.client.aclRules(site: f.site) }
            #expect(error?.code == .rateLimited)
            #expect(error?.retryAfter == .seconds(7))
            // Only where injected.
            let info = try await f.client.info()
            #expect(info.applicationVersion == "10.5.66")
        }
    }

    @Test func serverErrorIsServer() async throws {
        try await withUniFi { f in
            f.simulator.inject(.serverError)
            let error = await unifiError { _ = try await f.client.firewallPolicies(site: f.site) }
            #expect(error?.code == .server)
            #expect(error?.status == 500)
        }
    }

    @Test func injectedProxy401AndDelayTimeout() async throws {
        // 8 s: short beside the minute's delay, long enough for a first TLS handshake on a
        // machine that runs a hundred suites at once (3 s failed there now and then).
        try await withUniFi(requestTimeout: .seconds(8)) { f in
            f.simulator.inject(.unauthorized, pathContaining: "/info")
            #expect(await unifiError { _ = try await f.client.info() }?.code == .unauthorized)
            f.simulator.clearFaults()
            f.simulator.inject(.delay(.seconds(60)))
            let started = ContinuousClock.now
            #expect(await unifiError { _ = try await f.client.info() }?.code == .transport)
            // Cut by the request timeout, not by the answer a minute later.
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }

    @Test func pinMismatchIsATLSErrorShowingBothFingerprints() async throws {
        let simulator = UniFiSimulator()
        try await simulator.start()
        let wrong = CertificateFingerprint(der: [1, 2, 3])
        let connection = UniFiConnection(controllerURL: simulator.controllerURL, apiKey: "k", tls: .pinned(wrong))
        let error = await unifiError { _ = try await UniFiClient.makeHTTPClient(for: connection) }
        await simulator.stop()
        let served = try #require(simulator.certificate?.opensslFingerprint)
        #expect(error?.code == .tls)
        #expect(error?.message.contains(served) == true && error?.message.contains(wrong.description) == true)
        #expect(simulator.requestCount() == 0)
    }

    @Test func connectionDescriptionRedactsTheKey() {
        let connection = UniFiConnection(controllerURL: "https://192.168.1.1", apiKey: "s3cret-key")
        #expect(!connection.description.contains("s3cret-key"))
        #expect(connection.apiBaseURL == "https://192.168.1.1/proxy/network/integration")
    }
}
