import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import Testing
import UpstreamHTTP

/// `bridge.health`: `/healthz`, `/metrics` and `home2mqtt healthcheck`, on the real process.
@Suite struct HealthEndpointTests {
    @Test func healthzFollowsTheBrokerAndMetricsCountWhatHappened() async throws {
        let broker = try await TestBroker()
        defer { broker.stop() }
        let simulator = PiHoleSimulator()
        try await simulator.start()
        let (port, config, bridge) = try await LoopbackPort.withHeld { port in
            let config = try BridgeProcess.writeConfig("""
                mqtt:
                  port: \(broker.port)
                bridge:
                  health:
                    enabled: true
                    port: \(port)
                pihole:
                  instances:
                    - id: main
                      url: \(simulator.baseURL)
                      password: correct horse
                """)
            let bridge = try BridgeProcess(["run", "--config", config])
            try await waitUntil("the health endpoint to listen", timeout: .seconds(20)) { LoopbackPort.accepts(port: port) }
            return (port, config, bridge)
        }
        let observer = try await Observer(broker, subscribe: ["home/#"])
        _ = try await observer.latest("home/pihole/main", timeout: .seconds(20)) { $0["available"] == true }
        let base = "http://127.0.0.1:\(port)"

        #expect(try await Self.get(base + "/healthz").status == 200)
        #expect(try await BridgeProcess(["healthcheck", "--config", config]).finish().status == 0)
        #expect(try await observer.command("home/pihole/pause", "30")["status"] == "ok")
        #expect(try await observer.command("home/pihole/pause", "-1")["status"] == "error")

        let metrics = try await Self.get(base + "/metrics").body
        for line in [
            #"home2mqtt_commands_received_total{integration="pihole",command="pause"} 2"#,
            #"home2mqtt_commands_succeeded_total{integration="pihole",command="pause"} 1"#,
            #"home2mqtt_commands_failed_total{integration="pihole",command="pause"} 1"#,
            #"home2mqtt_upstream_logins_total{integration="pihole",instance="main"} 1"#,
            #"home2mqtt_upstream_available{integration="pihole",instance="main"} 1"#,
            #"home2mqtt_mqtt_connected 1"#,
        ] {
            #expect(metrics.contains(line), "\(line) missing from:\n\(metrics)")
        }
        #expect(metrics.contains(#"home2mqtt_upstream_request_duration_seconds_count{integration="pihole",instance="main"}"#))
        #expect(metrics.contains(#"home2mqtt_upstream_requests_total{integration="pihole",instance="main",outcome="success"}"#))

        // The broker goes away: /healthz says so, and the probe fails; it comes back: healthy again.
        broker.stop()
        try await waitUntil("/healthz to report the broker gone", timeout: .seconds(10)) {
            (try? await Self.get(base + "/healthz").status) == 503
        }
        #expect(try await BridgeProcess(["healthcheck", "--config", config]).finish().status == 1)
        try await broker.restart()
        try await waitUntil("/healthz to recover", timeout: .seconds(30)) {
            (try? await Self.get(base + "/healthz").status) == 200
        }
        #expect(try await Self.get(base + "/metrics").body.contains("home2mqtt_mqtt_reconnects_total 1"))

        bridge.signal(SIGTERM)
        #expect(try await bridge.finish().status == 0)
        #expect(simulator.activeSessionCount == 0)
        await observer.disconnect()
        await simulator.stop()
    }

    @Test func healthcheckFailsClearlyWhenThereIsNoListener() async throws {
        let off = try BridgeProcess.writeConfig("bridge:\n  health:\n    enabled: false\n")
        let disabled = try await BridgeProcess(["healthcheck", "--config", off]).finish()
        #expect(disabled.status == 1)
        #expect(disabled.stderr.contains("bridge.health.enabled is false"))

        try await LoopbackPort.withRefusing { port in
            let nobody = try BridgeProcess.writeConfig("bridge:\n  health:\n    enabled: true\n    port: \(port)\n")
            let refused = try await BridgeProcess(["healthcheck", "--config", nobody, "--timeout", "2"]).finish()
            #expect(refused.status == 1)
            #expect(refused.stdout.contains("unhealthy"))
        }
    }

    private static func get(_ url: String) async throws -> (status: Int, body: String) {
        let client = try UpstreamHTTPClient(tls: nil)
        do {
            let answer = try await client.collect(.GET, url, headers: [:], body: nil, timeout: .seconds(20), maxBodySize: 1 << 20)
            try await client.shutdown()
            return (Int(answer.status.code), String(buffer: answer.body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
