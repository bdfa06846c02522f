import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleSimulator
import PiHoleTestSupport
import Testing

/// Issue 11, beyond one box: two replicas of the bridge on one broker, sharing the commands
/// through an MQTT 5 shared subscription (`mqtt.shared_subscription_group`). One runs in this
/// process, the other is the real executable, which is then SIGKILLed.
@Suite struct ReplicaTests {
    @Test func eachCommandRunsOnceAndTheSurvivorServesThemAllAfterAKill() async throws {
        try await PiHoleFixture.withLastingSimulator { simulator, fixture in
            let group = "  shared_subscription_group: home2mqtt\n"
            let pihole = PiHoleFixture.yaml(["main": simulator])
            let other = try BridgeProcess.writeConfig("mqtt:\n  port: \(fixture.broker.port)\n  client_id: replica-b\n" + group + pihole)
            try await fixture.runBridge(yaml: "mqtt:\n" + group + pihole) { _, observer in
                let replica = try BridgeProcess(["run", "--config", other])
                defer { replica.child.terminate(signal: SIGKILL) }
                // Each replica logs in once it is subscribed and polling.
                try await waitUntil("both replicas logged in", timeout: .seconds(30)) { simulator.loginCount >= 2 }
                let burst = CommandBurst(observer)
                var seconds = 200
                func pause() async throws {
                    seconds += 1
                    let answer = try await burst.answer(burst.send("home/pihole/main/pause", "\(seconds)"))
                    #expect(answer["status"] == "ok", "\(answer)")
                }
                for _ in 0..<30 { try await pause() }
                #expect(simulator.pauseCalls.map(\.seconds) == Array(201...230), "each command carried out once")
                #expect(Set(simulator.pauseCalls.map(\.session)).count == 2, "both replicas took their share")

                replica.signal(SIGKILL)
                _ = try await replica.finish()
                // The dead replica's last will says offline; the one still serving says online again.
                try await waitUntil("the last will", timeout: .seconds(20)) {
                    observer.recorder.messages.contains { $0.topic == "home/bridge/state" && $0.payloadString == "offline" }
                }
                _ = try await observer.latest("home/bridge/state") { $0 == "online" }
                for _ in 0..<20 { try await pause() }
                #expect(simulator.pauseCalls.map(\.seconds) == Array(201...250))
                #expect(burst.sent.allSatisfy { burst.answers($0).count == 1 }, "each command answered once")
            }
        }
    }
}
