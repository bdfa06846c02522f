import BridgeCore
import BridgeTestSupport
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

@Suite struct PiHoleSessionTests {
    @Test func oneLoginSIDInTheHeaderAndLogoutOnShutdown() async throws {
        try await PiHoleFixture.withLastingSimulator { simulator, fixture in
            try await fixture.runBridge(yaml: PiHoleFixture.yaml(["main": simulator])) { fixture, observer in
                _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
                // A few polls (1 s apart) and commands: still the one session.
                for _ in 0..<3 { _ = try await observer.command("home/pihole/refresh") }
                try await waitUntil("three polls", timeout: .seconds(10)) {
                    simulator.requests.filter { $0.path == "/api/dns/blocking" }.count >= 6
                }
                #expect(simulator.loginCount == 1)
                let authenticated = simulator.requests.filter { $0.path != "/api/auth" }
                #expect(authenticated.allSatisfy { $0.header("x-ftl-sid") != nil && !($0.query ?? "").contains("sid") })
            }
            // The logout, and after it at most a read a poll had sent as the shutdown cancelled it
            // (the simulator records a request when it handles it, on another connection).
            let requests = simulator.requests
            let logout = try #require(requests.lastIndex { $0.method == "DELETE" && $0.path == "/api/auth" })
            #expect(requests[(logout + 1)...].allSatisfy { $0.method == "GET" }, "\(requests[(logout + 1)...].map(\.path))")
            #expect(simulator.activeSessionCount == 0)
        }
    }

    @Test func sixteenRestartsInARowNeverExhaustTheSeats() async throws {
        try await PiHoleFixture.withLastingSimulator { simulator, fixture in
            for restart in 1...17 {
                // Watching from before each start, live messages only: the state the run before left
                // says available too, and this run must be up (logged in) before it is stopped.
                try await Observer.watching(fixture.broker, subscribe: ["home/pihole/main"]) { watcher in
                    try await fixture.runBridge(yaml: PiHoleFixture.yaml(["main": simulator])) { _, _ in
                        _ = try await watcher.latest("home/pihole/main", live: true) { $0["available"] == true && $0["host"] == "pi-sim" }
                    }
                }
                #expect(simulator.activeSessionCount == 0, "after restart \(restart)")
                // The real FTL refuses more than 3 logins a second (even correct ones); that limit is
                // not what this test is about.
                try await Task.sleep(for: .milliseconds(350))
            }
            #expect(simulator.loginCount == 17)
        }
    }

    @Test func sessionExpiryMidUseIsHealedWithOneLogin() async throws {
        try await PiHoleFixture.run { fixture, observer in
            _ = try await observer.latest("home/pihole/main") { $0["available"] == true }
            #expect(fixture["main"].loginCount == 1)
            fixture["main"].expireAllSessions()
            #expect(try await observer.command("home/pihole/pause", "30")["status"] == "ok")
            #expect(fixture["main"].loginCount == 2)
            #expect(try await observer.latest("home/pihole/main")["available"] == true)
        }
    }

    @Test func wrongPasswordMeansOfflineWithAClearErrorAndNoLoginStorm() async throws {
        try await PiHoleFixture.run(password: "wrong") { fixture, observer in
            let state = try await observer.latest("home/pihole/main") { $0["available"] == false && $0["error"] != .null }
            #expect(state["error"]?.stringValue?.contains("password") == true, "\(state)")
            _ = try await observer.latest("home/pihole/main/availability") { $0 == "offline" }
            let response = try await observer.command("home/pihole/pause")
            #expect(response["status"] == "error" && response["code"] == "unauthorized", "\(response)")
            // Polling every second for a few seconds: the backoff (1 s, 2 s, 4 s …) keeps logins rare.
            try await Task.sleep(for: .seconds(3))
            #expect(fixture["main"].loginCount <= 3)
        }
    }

    @Test func unreachablePiHoleGoesOfflineThenOnlineAgain() async throws {
        try await PiHoleFixture.run(extraPiHoleYAML: "  request_timeout: 2\n") { fixture, observer in
            _ = try await observer.latest("home/pihole/main/availability") { $0 == "online" }
            try await fixture["main"].setFault(.down)
            _ = try await observer.latest("home/pihole/main/availability", timeout: .seconds(10)) { $0 == "offline" }
            _ = try await observer.latest("home/pihole/availability") { $0 == "offline" }
            try await fixture["main"].setFault(nil)
            _ = try await observer.latest("home/pihole/main/availability", timeout: .seconds(15)) { $0 == "online" }
        }
    }
}
