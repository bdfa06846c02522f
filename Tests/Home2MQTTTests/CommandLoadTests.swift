import AllUpstreamsTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleTestSupport
import Testing

/// Issue 11, load: commands at 1,000 a second for 10 s (`HOME2MQTT_LOAD_SECONDS` for longer),
/// spread over the three integrations, at the real process. None may be lost: each is answered
/// exactly once, `ok` or refused as busy (an integration lets 64 wait, and runs one command at a
/// time per lane, so an upstream only ever sees a few at once); the process's memory stays bounded.
@Suite struct CommandLoadTests {
    static let seconds = Int(ProcessInfo.processInfo.environment["HOME2MQTT_LOAD_SECONDS"] ?? "") ?? 10
    /// 10 commands every 10 ms.
    static let perTick = 10
    static let tick = Duration.milliseconds(10)
    static let ticksPerSecond = 100

    @Test func aThousandCommandsASecondAreEachAnsweredOnceAndMemoryStaysBounded() async throws {
        try await AllUpstreams.run { upstreams in
            let bridge = try BridgeProcess(["run", "--config", upstreams.configFile()])
            defer { bridge.child.terminate(signal: SIGKILL) }
            let watched = ["home/pihole/main", "home/unifi/rules", "home/reef/outlets"]
            try await Observer.watching(upstreams.broker, subscribe: watched) { observer in
                try await AllUpstreams.waitUntilServing(observer)
                let residentBefore = try memory(bridge.child.pid, "VmRSS")
                let burst = CommandBurst(observer)
                let start = ContinuousClock.now
                for tick in 0..<(Self.seconds * Self.ticksPerSecond) {
                    for index in 0..<Self.perTick {
                        let (topic, payload) = command(tick * Self.perTick + index)
                        try await burst.send(topic, payload)
                    }
                    try await Task.sleep(until: start + Self.tick * (tick + 1), clock: .continuous)
                }
                let sending = ContinuousClock.now - start
                try await waitUntil("every command answered", timeout: .seconds(180), pollInterval: .milliseconds(500)) {
                    burst.answeredCount == burst.sent.count
                }
                let draining = ContinuousClock.now - start - sending
                let peak = try memory(bridge.child.pid, "VmHWM")

                let results = burst.answered()
                #expect(results.allSatisfy { $0.answers.count == 1 }, "each answered exactly once")
                let refused = results.filter { $0.answers.first?["status"] != "ok" }
                #expect(refused.allSatisfy { $0.answers.first?["error"]?.stringValue?.hasPrefix("busy") == true && $0.answers.first?["code"] == "busy" },
                        "\(refused.prefix(3).map(\.answers))")
                // Each pause answered ok reached the Pi-hole once; none refused as busy reached it.
                let pausesOK = results.filter { $0.command.topic.hasSuffix("/pause") && $0.answers.first?["status"] == "ok" }
                #expect(upstreams.piHole.pauseCalls.map(\.seconds).sorted() == pausesOK.compactMap { Int($0.command.payload) }.sorted())
                #expect(peak - residentBefore < 200 * 1024, "resident \(residentBefore) kB before, peak \(peak) kB")
                print("""
                    CommandLoadTests: \(results.count) commands sent in \(sending), the last answered \(draining) later; \
                    \(results.count - refused.count) ok, \
                    \(refused.count) busy; resident \(residentBefore / 1024) MB before, peak \(peak / 1024) MB
                    """)
            }
        }
    }
}

/// The `n`th command of the load: a pause of its own length, a rule or an outlet switched.
private func command(_ n: Int) -> (topic: String, payload: String) {
    switch n % 3 {
    case 0: ("home/pihole/main/pause", "\(n / 3 + 1)")
    case 1: ("home/unifi/rule/\(n % 2 == 0 ? "downtime-emma" : "downtime-leo")/set", n % 4 < 2 ? "ON" : "OFF")
    default: ("home/reef/outlet/\(n % 2 == 0 ? "heater" : "return-pump")/set", n % 4 < 2 ? "ON" : "OFF")
    }
}

