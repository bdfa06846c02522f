import BridgeCore
import BridgeTestSupport
import Foundation
import MQTT
import MQTTTestSupport
import PiHoleTestSupport
import Testing
import TLSTestSupport

/// Issue 11, security at the broker: a TLS listener with a CA made at test time, passwords, client
/// certificates, and the roles of broker-config/acl enforced end to end for all three integrations.
@Suite struct BrokerSecurityTests {
    static let bridgeUser = "mqtt:\n  username: bridge\n  password: bridge-password\n"

    @Test func theBridgeServesOverTLSWithAClientCertificateAndAPassword() async throws {
        let authority = try await TestCertificateAuthority()
        defer { authority.remove() }
        let server = try await authority.issue(commonName: "broker", subjectAltName: "IP:127.0.0.1")
        let bridge = try await authority.issue(commonName: "bridge")
        let assistant = try await authority.issue(commonName: "homeassistant")
        let broker = try await TestBroker.withRoles(config: tlsListener(authority, server, requireCertificate: true))
        defer { broker.stop() }
        let tls = "  tls:\n    ca_file: \(authority.certificatePath)\n    cert_file: \(bridge.certificatePath)\n    key_file: \(bridge.keyPath)\n"
        let assistantTLS = MQTTTLS(caFile: authority.certificatePath, certFile: assistant.certificatePath, keyFile: assistant.keyPath)
        try await runOverTLS(broker, bridgeTLS: tls, observerTLS: assistantTLS) { fixture, observer in
            let answer = try await observer.command("home/pihole/main/pause", "30")
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(fixture["main"].blocking == .disabled)
        }
    }

    /// The broker's certificate replaced while the bridge runs (a renewal, a broker moved): one its
    /// CA signed is taken at the next connect, one it did not is refused — no command crosses,
    /// nothing reaches the Pi-hole — and the bridge comes back by itself once a good one is back.
    @Test func aNewBrokerCertificateIsCheckedAtEveryReconnect() async throws {
        let authority = try await TestCertificateAuthority()
        let stranger = try await TestCertificateAuthority(commonName: "someone else's CA")
        defer { authority.remove(); stranger.remove() }
        let first = try await authority.issue(commonName: "broker", subjectAltName: "IP:127.0.0.1")
        let renewed = try await authority.issue(commonName: "broker", subjectAltName: "IP:127.0.0.1")
        let foreign = try await stranger.issue(commonName: "broker", subjectAltName: "IP:127.0.0.1")
        // The listener reads these two paths at every start; the test puts a certificate there.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("broker-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let served = (certificatePath: scratch.appendingPathComponent("broker.pem").path, keyPath: scratch.appendingPathComponent("broker-key.pem").path)
        func serve(_ certificate: (certificatePath: String, keyPath: String)) throws {
            for (from, to) in [(certificate.certificatePath, served.certificatePath), (certificate.keyPath, served.keyPath)] {
                try? FileManager.default.removeItem(atPath: to)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
        }
        // The observer trusts both CAs, so that it can watch while the bridge is refused.
        let bothAuthorities = scratch.appendingPathComponent("both-cas.pem").path
        try (String(contentsOfFile: authority.certificatePath, encoding: .utf8) + String(contentsOfFile: stranger.certificatePath, encoding: .utf8))
            .write(toFile: bothAuthorities, atomically: true, encoding: .utf8)

        try serve(first)
        let broker = try await TestBroker.withRoles(config: tlsListener(authority, served, requireCertificate: false))
        defer { broker.stop() }
        let tls = "  tls:\n    ca_file: \(authority.certificatePath)\n"
        try await runOverTLS(broker, bridgeTLS: tls, observerTLS: MQTTTLS(caFile: bothAuthorities)) { fixture, observer in
            #expect(try await observer.command("home/pihole/main/pause", "30")["status"] == "ok")

            try serve(renewed)
            try await restartAndWaitForTheBridge(broker, observer)
            let renewedAnswer = try await observer.command("home/pihole/main/pause", "31", timeout: .seconds(30))
            #expect(renewedAnswer["status"] == "ok", "after a renewal by the same CA: \(renewedAnswer)")

            try serve(foreign)
            try await broker.restart()
            try await observer.client.waitUntilConnected(timeout: .seconds(30))
            let callsBefore = fixture["main"].pauseCalls.count
            await #expect(throws: (any Error).self, "a command crossed a broker the bridge should not trust") {
                _ = try await observer.command("home/pihole/main/pause", "32", timeout: .seconds(5))
            }
            #expect(fixture["main"].pauseCalls.count == callsBefore)

            try serve(renewed)
            try await restartAndWaitForTheBridge(broker, observer, timeout: .seconds(60))
            let backAnswer = try await observer.command("home/pihole/main/pause", "33", timeout: .seconds(60))
            #expect(backAnswer["status"] == "ok", "once the good certificate is back: \(backAnswer)")
        }
    }

    /// Each refusal beside the one connection that is let in, so that a client that trusted
    /// anything (or a broker that asked for nothing) would fail here.
    @Test func untrustedBrokersAndClientsWithoutCertificateOrPasswordAreRefused() async throws {
        let authority = try await TestCertificateAuthority()
        let stranger = try await TestCertificateAuthority(commonName: "someone else's CA")
        defer { authority.remove(); stranger.remove() }
        let client = try await authority.issue(commonName: "bridge")
        let trusted = MQTTTLS(caFile: authority.certificatePath, certFile: client.certificatePath, keyFile: client.keyPath)
        let bridge = ("bridge", "bridge-password")

        let good = try await TestBroker.withRoles(config: tlsListener(authority, try await authority.issue(commonName: "broker", subjectAltName: "IP:127.0.0.1"), requireCertificate: true))
        let foreign = try await TestBroker.withRoles(config: tlsListener(authority, try await stranger.issue(commonName: "broker", subjectAltName: "IP:127.0.0.1"), requireCertificate: true))
        let misnamed = try await TestBroker.withRoles(config: tlsListener(authority, try await authority.issue(commonName: "broker", subjectAltName: "DNS:broker.example"), requireCertificate: true))
        defer { good.stop(); foreign.stop(); misnamed.stop() }

        let letIn = try await connectError(good, tls: trusted, credentials: bridge)
        #expect(letIn == nil, "\(String(describing: letIn))")
        let refusals: [(what: String, broker: TestBroker, tls: MQTTTLS, credentials: (String, String)?, reason: String)] = [
            ("a broker certificate another CA signed", foreign, trusted, bridge, "TLS"),
            ("a broker certificate for another name", misnamed, trusted, bridge, "TLS"),
            ("no client certificate", good, MQTTTLS(caFile: authority.certificatePath), bridge, "connection"),
            ("no password", good, trusted, nil, "not authorized"),
            ("a wrong password", good, trusted, ("bridge", "guess"), "not authorized"),
        ]
        // At once: a refused handshake is retried until the time limit, not refused for good.
        try await withThrowingTaskGroup(of: (String, String, MQTTError?).self) { group in
            for refusal in refusals {
                group.addTask { (refusal.what, refusal.reason, try await connectError(refusal.broker, tls: refusal.tls, credentials: refusal.credentials)) }
            }
            for try await (what, reason, error) in group {
                #expect(error != nil, "\(what) was let in")
                #expect(error?.message.localizedCaseInsensitiveContains(reason) == true, "\(what): \(String(describing: error))")
            }
        }
    }

    @Test func theWatchRoleMayOnlyPauseAndResumeAndNeverReadsDiscovery() async throws {
        let broker = try await TestBroker.withRoles()
        defer { broker.stop() }
        try await AllIntegrations.run(broker: broker, brokerYAML: Self.bridgeUser, observer: { configuration in
            configuration.username = "homeassistant"
            configuration.password = "homeassistant-password"
        }) { all, _ in
            try await Observer.watching(broker, subscribe: ["home/#"], configure: { configuration in
                configuration.username = "watch"
                configuration.password = "watch-password"
            }) { watch in
                // Refused by the broker (an MQTT 5 PUBACK "not authorized"): none reaches the bridge.
                for (topic, payload) in [
                    ("home/unifi/rule/downtime-emma/set", "OFF"), ("home/reef/outlet/heater/set", "ON"),
                    ("home/reef/outlet/return-pump/set", #"{"state":"off","for":600}"#), ("home/pihole/domains/allow/add", "youtube.com"),
                    ("home/pihole/main/blocking/set", "OFF"), ("home/pihole/group/default/set", #"{"enabled":false,"force":true}"#),
                    ("home/pihole/action/gravity", ""), ("home/pihole/recently_blocked/get", ""),
                ] {
                    try? await watch.send(topic, payload)
                }
                try await watch.send("home/pihole/pause", "30")
                let paused = try await watch.recorder.first(topic: "home/pihole/pause/response", timeout: .seconds(10))
                #expect(JSONValue.parse(paused.payload)?["status"] == "ok")
                try await watch.send("home/pihole/resume", "")
                _ = try await watch.recorder.first(topic: "home/pihole/resume/response", timeout: .seconds(10))
                #expect(all.upstreamWrites.filter { $0.value > 0 } == ["pihole blocking": 2])

                // Discovery is not the watch's to read: nothing of it arrives, whatever the broker answers to the subscription.
                // The state's retained copy, sent again for a second subscription, comes after anything
                // the first one would have brought.
                try? await watch.client.subscribe("homeassistant/#")
                let states = watch.recorder.messages.filter { $0.topic == "home/bridge/state" }.count
                try await watch.client.subscribe("home/bridge/state")
                try await waitUntil("the state again", timeout: .seconds(10)) {
                    watch.recorder.messages.filter { $0.topic == "home/bridge/state" }.count > states
                }
                #expect(!watch.recorder.messages.contains { $0.topic.hasPrefix("homeassistant/") })
            }
        }
    }
}

/// The Pi-hole fixture's bridge as the `bridge` user with `bridgeTLS` (its `mqtt.tls` lines),
/// watched by `homeassistant` with `observerTLS`.
private func runOverTLS(
    _ broker: TestBroker, bridgeTLS: String, observerTLS: MQTTTLS, _ body: (PiHoleFixture, Observer) async throws -> Void
) async throws {
    try await PiHoleFixture.run(broker: broker, brokerYAML: BrokerSecurityTests.bridgeUser + bridgeTLS, observer: { configuration in
        configuration.username = "homeassistant"
        configuration.password = "homeassistant-password"
        configuration.tls = observerTLS
    }, body)
}

/// Restarts the broker (it forgets every subscription) and waits until the bridge said `online`
/// through it again: subscribed, and ready for commands.
private func restartAndWaitForTheBridge(_ broker: TestBroker, _ observer: Observer, timeout: Duration = .seconds(30)) async throws {
    let online = { observer.recorder.messages.filter { $0.topic == "home/bridge/state" && $0.payloadString == "online" }.count }
    let before = online()
    try await broker.restart()
    try await waitUntil("the bridge online again", timeout: timeout) { online() > before }
}

/// mosquitto listener lines for TLS with `server`'s certificate; clients are checked against `authority`.
private func tlsListener(_ authority: TestCertificateAuthority, _ server: (certificatePath: String, keyPath: String), requireCertificate: Bool) -> String {
    "cafile \(authority.certificatePath)\ncertfile \(server.certificatePath)\nkeyfile \(server.keyPath)\nrequire_certificate \(requireCertificate)\n"
}

/// Why a client with `tls` and `credentials` cannot connect to `broker`; `nil` when it can.
private func connectError(_ broker: TestBroker, tls: MQTTTLS, credentials: (String, String)?) async throws -> MQTTError? {
    var configuration = MQTTConfiguration(clientID: uniqueClientID("tls"), host: broker.host, port: broker.port)
    configuration.tls = tls
    configuration.username = credentials?.0
    configuration.password = credentials?.1
    let client = try MQTTClient(configuration: configuration, logger: testLogger("tls"))
    do {
        try await client.connect(timeout: .seconds(10))
        await client.disconnect()
        return nil
    } catch let error as MQTTError {
        return error
    }
}
