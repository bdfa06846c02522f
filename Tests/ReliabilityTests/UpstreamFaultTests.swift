import BellasReefSimulator
import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import PiHoleSimulator
import Testing
import UniFiSimulator

/// Issue 11, upstream faults: one bridge with all three integrations; one upstream at a time goes
/// down, answers 500, stalls 10 s, drops connections, forgets the bridge's session or token, or
/// refuses its key. Only that upstream's availability changes, the other two go on taking
/// commands, it comes back by itself once the fault is cleared, and it is not stormed with logins.
@Suite struct UpstreamFaultTests {
    struct Fault: Sendable, CustomTestStringConvertible {
        let upstream: Upstream
        let name: String
        /// Whether the upstream must be shown unavailable while it lasts (a stall may or may not
        /// outlast the request timeout; a forgotten session is logged in again, unseen).
        let darkens: Bool
        let inject: @Sendable (AllIntegrations) async throws -> Void
        let clear: @Sendable (AllIntegrations) async throws -> Void
        var testDescription: String { "\(upstream.rawValue): \(name)" }
    }

    static let faults: [Fault] = [
        Fault(upstream: .pihole, name: "down", darkens: true, inject: { try await $0.piHole.setFault(.down) }, clear: { try await $0.piHole.setFault(nil) }),
        Fault(upstream: .pihole, name: "500s", darkens: true, inject: { try await $0.piHole.setFault(.serverError) }, clear: { try await $0.piHole.setFault(nil) }),
        Fault(upstream: .pihole, name: "dropped connections", darkens: true,
              inject: { try await $0.piHole.setFault(.dropConnections) }, clear: { try await $0.piHole.setFault(nil) }),
        Fault(upstream: .pihole, name: "10 s stalls", darkens: false,
              inject: { try await $0.piHole.setFault(.delay(.seconds(10))) }, clear: { try await $0.piHole.setFault(nil) }),
        Fault(upstream: .pihole, name: "expired session", darkens: false, inject: { $0.piHole.expireAllSessions() }, clear: { _ in }),
        Fault(upstream: .reef, name: "down", darkens: true,
              inject: { try await $0.reef.setFault(.down, on: .core) }, clear: { try await $0.reef.setFault(nil, on: .core) }),
        Fault(upstream: .reef, name: "500s", darkens: true,
              inject: { try await $0.reef.setFault(.serverError, on: .core) }, clear: { try await $0.reef.setFault(nil, on: .core) }),
        Fault(upstream: .reef, name: "dropped connections", darkens: true,
              inject: { try await $0.reef.setFault(.dropConnections, on: .core) }, clear: { try await $0.reef.setFault(nil, on: .core) }),
        Fault(upstream: .reef, name: "10 s stalls", darkens: false,
              inject: { try await $0.reef.setFault(.delay(.seconds(10)), on: .core) }, clear: { try await $0.reef.setFault(nil, on: .core) }),
        Fault(upstream: .reef, name: "expired tokens", darkens: false, inject: { $0.reef.expireAllTokens() }, clear: { _ in }),
        // Down: the console's listener stops (connects refused); started again on the same port.
        Fault(upstream: .unifi, name: "down", darkens: true, inject: { await $0.unifi.stop() }, clear: { try await $0.unifi.start() }),
        Fault(upstream: .unifi, name: "500s", darkens: true, inject: { $0.unifi.inject(.serverError) }, clear: { $0.unifi.clearFaults() }),
        Fault(upstream: .unifi, name: "dropped connections", darkens: true,
              inject: { $0.unifi.inject(.dropConnections) }, clear: { $0.unifi.clearFaults() }),
        Fault(upstream: .unifi, name: "10 s stalls", darkens: false, inject: { $0.unifi.inject(.delay(.seconds(10))) }, clear: { $0.unifi.clearFaults() }),
        Fault(upstream: .unifi, name: "key refused", darkens: true, inject: { $0.unifi.inject(.unauthorized) }, clear: { $0.unifi.clearFaults() }),
    ]

    @Test(arguments: faults)
    func onlyTheFaultyUpstreamDarkensAndItComesBackWithoutALoginStorm(fault: Fault) async throws {
        try await AllIntegrations.run { all, observer in
            let loginsBefore = Upstream.logins(all)
            let pollsBefore = fault.upstream.requests(all)
            let messagesBefore = observer.recorder.messages.count
            try await fault.inject(all)
            if fault.darkens {
                try await waitUntil("\(fault.upstream) unavailable", timeout: .seconds(30)) { fault.upstream.isAvailable(observer) == false }
            } else {
                // Exercised: the faulty upstream was asked (and stalled, or refused the session) a few times.
                try await waitUntil("\(fault.upstream) asked again", timeout: .seconds(30)) { fault.upstream.requests(all) >= pollsBefore + 2 }
            }
            for other in Upstream.allCases where other != fault.upstream {
                let answer = try await other.command(observer)
                #expect(answer["status"] == "ok", "\(other) while \(fault.upstream) has \(fault.name): \(answer)")
                #expect(other.isAvailable(observer) == true, "\(other) is available")
            }
            try await fault.clear(all)
            try await waitUntil("\(fault.upstream) back", timeout: .seconds(60)) { fault.upstream.isAvailable(observer) == true }
            let answer = try await fault.upstream.command(observer)
            #expect(answer["status"] == "ok", "\(fault.upstream) after \(fault.name): \(answer)")
            for other in Upstream.allCases where other != fault.upstream {
                #expect(!other.wasUnavailable(observer, after: messagesBefore), "\(other) was never shown unavailable")
            }
            // At most one login to make up for a lost session, whatever the fault did meanwhile.
            let loginsAfter = Upstream.logins(all)
            for upstream in [Upstream.pihole, .reef] {
                #expect(loginsAfter[upstream]! - loginsBefore[upstream]! <= 1, "\(upstream) logins: \(loginsBefore) → \(loginsAfter)")
            }
        }
    }
}
