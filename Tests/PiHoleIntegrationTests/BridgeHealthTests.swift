import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// `home/bridge/health` per upstream and its restores: published as things change, not only every
/// minute (every wait here is far shorter than a minute).
@Suite struct BridgeHealthTests {
    private static func upstream(_ health: JSONValue, _ key: String) -> JSONValue? {
        health["upstreams"]?[key]
    }

    @Test func eachUpstreamsLastSuccessAndLastErrorGoOutAsTheyHappen() async throws {
        try await PiHoleFixture.run(ids: ["main", "spare"]) { fixture, observer in
            let answered = try await observer.latest("home/bridge/health") { health in
                ["pihole/main", "pihole/spare"].allSatisfy { Self.upstream(health, $0)?["last_success"]?.stringValue != nil }
            }
            #expect(Self.upstream(answered, "pihole/main")?["last_error"] == .null)
            #expect(answered["pending_restores"] == 0)

            try await fixture["main"].setFault(.serverError)
            let failing = try await observer.latest("home/bridge/health") { Self.upstream($0, "pihole/main")?["failing"] == true }
            let main = try #require(Self.upstream(failing, "pihole/main"))
            #expect(main["last_error"]?.stringValue?.contains("500") == true, "\(main)")
            let at = try #require(main["last_error_at"]?.stringValue.flatMap { try? Date.ISO8601FormatStyle().parse($0) })
            let lastSuccess = try #require(main["last_success"]?.stringValue.flatMap { try? Date.ISO8601FormatStyle().parse($0) })
            #expect(at >= lastSuccess)
            #expect(Self.upstream(failing, "pihole/spare")?["last_error"] == .null)
            #expect(Self.upstream(failing, "pihole/spare")?["failing"] == false)

            try await fixture["main"].setFault(nil)
            let recovered = try await observer.latest("home/bridge/health") { Self.upstream($0, "pihole/main")?["failing"] == false }
            #expect(Self.upstream(recovered, "pihole/main")?["last_error"] == main["last_error"], "the last error is kept")
        }
    }

    @Test func aTimedChangeIsAPendingRestoreUntilItIsPutBack() async throws {
        try await PiHoleFixture.withLastingSimulator(prepare: { $0.addGroup(name: "kids", comment: "tablets") }) { _, fixture in
            try await fixture.runBridge(yaml: PiHoleFixture.yaml(fixture.simulators)) { _, observer in
                _ = try await observer.latest("home/bridge/health") { $0["pending_restores"] == 0 }
                let answer = try await observer.command("home/pihole/main/group/kids/set", #"{"enabled":false,"for":2}"#)
                #expect(answer["status"] == "ok", "\(answer)")
                _ = try await observer.latest("home/bridge/health") { $0["pending_restores"] == 1 }
                _ = try await observer.latest("home/bridge/health") { $0["pending_restores"] == 0 }
            }
        }
    }
}
