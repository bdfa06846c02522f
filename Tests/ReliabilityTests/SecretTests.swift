import BridgeCore
import BridgeTestSupport
import Foundation
import Testing

/// Issue 11, secrets: a whole session of every integration at trace level, commands included;
/// no configured secret may appear in any log line or any message on the broker.
@Suite struct SecretTests {
    /// The secrets the fixtures configure: the Pi-hole's password, the UniFi API key, the Reef's password.
    static let secrets = ["correct horse", "sim-api-key", "reefrocks"]

    @Test func noSecretInAnyLogLineOrMessage() async throws {
        let capture = LogCapture()
        try await AllIntegrations.run(logger: capture.logger("all")) { _, observer in
            #expect(try await observer.command("home/pihole/main/pause", "5")["status"] == "ok")
            #expect(try await observer.command("home/unifi/rule/downtime-emma/set", #"{"enabled":false,"for":60}"#)["status"] == "ok")
            #expect(try await observer.command("home/reef/outlet/heater/set", "ON")["status"] == "ok")
            #expect(try await observer.command("home/unifi/rule/no-such-rule/set", "ON")["status"] == "error")
            let info = try await observer.latest("home/bridge/info")
            #expect(info.encodedString().contains("**redacted**"))
            let messages = observer.recorder.messages.map { "\($0.topic) \(String(decoding: $0.payload, as: UTF8.self))" }
            #expect(messages.count > 20)
            for secret in Self.secrets {
                #expect(!messages.contains { $0.contains(secret) }, "\(secret) in a message")
            }
        }
        let lines = capture.all
        #expect(lines.count > 20, "a trace-level session logs plenty")
        for secret in Self.secrets {
            let leaks = lines.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "\(secret) logged: \(leaks.prefix(3))")
        }
    }
}
