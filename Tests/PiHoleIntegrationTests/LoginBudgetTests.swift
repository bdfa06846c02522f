import BridgeCore
import BridgeTestSupport
import Foundation
import PiHoleAPI
@testable import PiHoleIntegration
import PiHoleSimulator
import Prometheus
import Testing

/// The measurement issue 3 asks for: logins made over one hour of polling every 5 s.
/// The simulator's clock is advanced 5 s per poll, so the hour takes a second or two, and the
/// Pi-hole's 1800 s session timeout (extended by every request) is in play as on a real one.
@Suite struct LoginBudgetTests {
    @Test func oneHourOfPollingEveryFiveSecondsLogsInOnce() async throws {
        let clock = PiHoleSimulatorManualClock()
        let simulator = PiHoleSimulator(clock: .manual(clock))
        let registry = PrometheusCollectorRegistry()
        try await simulator.start()
        // What is counted is logins, not speed: the requests' deadlines are on a clock nobody moves.
        let instance = PiHoleInstance(
            id: "main",
            connection: PiHoleConnection(baseURL: simulator.baseURL, password: "correct horse"),
            logger: testLogger("pihole"),
            metrics: BridgeMetrics(factory: PrometheusMetricsFactory(registry: registry)).upstream(integration: "pihole", instance: "main"),
            clock: ManualClock())
        let polls = 3600 / 5
        for poll in 1...polls {
            let snapshot = await instance.refresh()
            #expect(snapshot.available, "poll \(poll): \(snapshot.error ?? "")")
            clock.advance(by: 5)
        }
        await instance.shutdown()
        await simulator.stop()
        let reads = simulator.requests.filter { $0.path == "/api/dns/blocking" }.count
        print("logins over \(polls) polls (one hour at 5 s): \(simulator.loginCount); blocking reads: \(reads)")
        #expect(reads == polls)
        #expect(simulator.loginCount == 1)
        #expect(simulator.activeSessionCount == 0, "logged out at the end")
        // The bridge's own count, as /metrics shows it.
        #expect(registry.emitToString().contains(#"home2mqtt_upstream_logins_total{integration="pihole",instance="main"} 1"#))
    }
}
