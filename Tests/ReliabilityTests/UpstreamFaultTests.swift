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
    enum Upstream: String, Sendable { case pihole, unifi, reef }

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
        Fault(upstream: .reef, name: "10 s stalls", darkens: false,
              inject: { try await $0.reef.setFault(.delay(.seconds(10)), on: .core) }, clear: { try await $0.reef.setFault(nil, on: .core) }),
        Fault(upstream: .reef, name: "expired tokens", darkens: false, inject: { $0.reef.expireAllTokens() }, clear: { _ in }),
        Fault(upstream: .unifi, name: "500s", darkens: true, inject: { $0.unifi.inject(.serverError) }, clear: { $0.unifi.clearFaults() }),
        Fault(upstream: .unifi, name: "10 s stalls", darkens: false, inject: { $0.unifi.inject(.delay(.seconds(10))) }, clear: { $0.unifi.clearFaults() }),
        Fault(upstream: .unifi, name: "key refused", darkens: true, inject: { $0.unifi.inject(.unauthorized) }, clear: { $0.unifi.clearFaults() }),
    ]

    @Test(arguments: faults)
    func onlyTheFaultyUpstreamDarkensAndItComesBackWithoutALoginStorm(fault: Fault) async throws {
        try await AllIntegrations.run { all, observer in
            let loginsBefore = logins(all)
            let pollsBefore = polls(all)
            try await fault.inject(all)
            if fault.darkens {
                try await waitUntil("\(fault.upstream) unavailable", timeout: .seconds(30)) { isAvailable(fault.upstream, observer) == false }
            } else {
                // Exercised: the faulty upstream was asked (and stalled, or refused the session) a few times.
                try await waitUntil("\(fault.upstream) asked again", timeout: .seconds(30)) { polls(all)[fault.upstream]! >= pollsBefore[fault.upstream]! + 2 }
            }
            for other in [Upstream.pihole, .unifi, .reef] where other != fault.upstream {
                let answer = try await command(other, observer)
                #expect(answer["status"] == "ok", "\(other) while \(fault.upstream) has \(fault.name): \(answer)")
                #expect(isAvailable(other, observer) == true, "\(other) stays available")
            }
            try await fault.clear(all)
            try await waitUntil("\(fault.upstream) back", timeout: .seconds(60)) { isAvailable(fault.upstream, observer) == true }
            let answer = try await command(fault.upstream, observer)
            #expect(answer["status"] == "ok", "\(fault.upstream) after \(fault.name): \(answer)")
            // At most one login to make up for a lost session, whatever the fault did meanwhile.
            let loginsAfter = logins(all)
            for upstream in [Upstream.pihole, .reef] {
                #expect(loginsAfter[upstream]! - loginsBefore[upstream]! <= 1, "\(upstream) logins: \(loginsBefore) → \(loginsAfter)")
            }
        }
    }
}

private func isAvailable(_ upstream: UpstreamFaultTests.Upstream, _ observer: Observer) -> Bool? {
    let (topic, read): (String, (JSONValue) -> Bool?) = switch upstream {
    case .pihole: ("home/pihole/main", { $0["available"]?.boolValue })
    case .unifi: ("home/unifi/controller/home", { $0["available"]?.boolValue })
    case .reef: ("home/reef/core/availability", { $0.stringValue.map { $0 == "online" } })
    }
    guard let last = observer.recorder.messages.last(where: { $0.topic == topic }) else { return nil }
    return read(JSONValue.parse(last.payload) ?? .string(last.payloadString ?? ""))
}

/// A command each upstream must carry out.
private func command(_ upstream: UpstreamFaultTests.Upstream, _ observer: Observer) async throws -> JSONValue {
    switch upstream {
    case .pihole: try await observer.command("home/pihole/main/pause", "5", timeout: .seconds(30))
    case .unifi: try await observer.command("home/unifi/rule/downtime-emma/set", "OFF", timeout: .seconds(30))
    case .reef: try await observer.command("home/reef/outlet/heater/set", "ON", timeout: .seconds(30))
    }
}

private func logins(_ all: AllIntegrations) -> [UpstreamFaultTests.Upstream: Int] {
    [.pihole: all.piHole.loginCount, .reef: all.reef.loginCount]
}

/// Requests each simulator received (the Reef's core: where its faults go).
private func polls(_ all: AllIntegrations) -> [UpstreamFaultTests.Upstream: Int] {
    [.pihole: all.piHole.requests.count, .unifi: all.unifi.requests.count, .reef: all.reef.requests(.core).count]
}
