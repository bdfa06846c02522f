import AllUpstreamsTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import PiHoleTestSupport
import Testing

/// Issue 11: SIGTERM in the middle of a burst of commands to all three integrations, on the
/// real process. The Pi-hole answers slowly, so one of its commands is in flight and 63 wait
/// behind it when the signal comes.
@Suite struct ShutdownBurstTests {
    /// What `CommandQueue.capacity` lets wait for one integration; the rest are refused as busy.
    static let piHoleCapacity = 64

    @Test func everyCommandIsAnsweredOnceNoNewCallStartsAndTheBridgeExitsCleanly() async throws {
        try await AllUpstreams.run { upstreams in
            let piHole = upstreams.piHole
            let config = try upstreams.configFile(bridge: "  command_timeout: 60\n", piHoleExtra: "  request_timeout: 60\n")
            let bridge = try BridgeProcess(["run", "--config", config])
            defer { bridge.child.terminate(signal: SIGKILL) }
            try await Observer.watching(upstreams.broker, subscribe: ["home/#"]) { observer in
                try await AllUpstreams.waitUntilServing(observer)
                // Slow enough that the first pause is still in flight at the signal, with the
                // bridge's own limits (60 s) further still.
                try await piHole.setFault(.delay(.seconds(30)))
                let burst = CommandBurst(observer)

                // Pauses of distinct lengths, so each call the Pi-hole sees names its command.
                var pauses: [CommandBurst.Sent] = []
                var others: [CommandBurst.Sent] = []
                for index in 0..<(Self.piHoleCapacity + 2) {
                    pauses.append(try await burst.send("home/pihole/main/pause", "\(100 + index)"))
                    if index % 6 == 0 {
                        others.append(try await burst.send("home/reef/outlet/heater/set", index % 12 == 0 ? "ON" : "OFF"))
                        others.append(try await burst.send("home/unifi/rule/downtime-emma/set", index % 12 == 0 ? "OFF" : "ON"))
                    }
                }
                // The last two are refused as busy: then every earlier one is in the bridge, running or waiting.
                try await waitUntil("the last two pauses refused as busy", timeout: .seconds(20)) {
                    pauses.suffix(2).allSatisfy { burst.answers($0).first?["error"]?.stringValue?.hasPrefix("busy") == true }
                }
                try await waitUntil("the Reef and UniFi commands answered", timeout: .seconds(20)) {
                    others.allSatisfy { !burst.answers($0).isEmpty }
                }
                #expect(others.allSatisfy { burst.answers($0).first?["status"] == "ok" }, "\(others.map(burst.answers))")
                try await waitUntil("the first pause reaches the Pi-hole") { piHole.pauseCalls.count >= 1 }
                let blockingCallsBefore = piHole.pauseCalls.count

                let signalled = ContinuousClock.now
                let recordedBeforeSignal = observer.recorder.messages.count
                bridge.signal(SIGTERM)
                let result = try await bridge.finish(timeout: .seconds(20))
                #expect(result.status == 0, "\(result.stderr)")
                #expect(ContinuousClock.now - signalled < .seconds(5))
                // A request cut short by the shutdown says nothing of its upstream: none is called
                // unavailable, in the log or in its state.
                #expect(!result.stderr.contains("is unavailable"), "\(result.stderr.split(separator: "\n").filter { $0.contains("unavailable") })")
                let afterSignal = observer.recorder.messages.dropFirst(recordedBeforeSignal)
                #expect(!afterSignal.contains { $0.topic == "home/pihole/main" && JSONValue.parse($0.payload)?["available"] == false })

                try await waitUntil("every command answered", timeout: .seconds(10)) { burst.answeredCount == burst.sent.count }
                for command in burst.sent {
                    let answers = burst.answers(command)
                    #expect(answers.count == 1, "\(command.topic) \(command.payload): \(answers)")
                    #expect(["ok", "error"].contains(answers.first?["status"]?.stringValue), "\(answers)")
                }
                // The queued ones were answered, not carried out: no call began after the signal.
                let waiting = pauses.dropFirst().dropLast(2)
                #expect(waiting.allSatisfy { burst.answers($0).first?["error"]?.stringValue?.contains("shutting down") == true },
                        "\(waiting.map(burst.answers).prefix(3))")
                #expect(piHole.pauseCalls.count == blockingCallsBefore)
                #expect(blockingCallsBefore == 1, "only the first pause reached the Pi-hole")
                #expect(piHole.requests.contains { $0.method == "DELETE" && $0.path == "/api/auth" }, "logged out")
                _ = try await observer.latest("home/bridge/state") { $0 == "offline" }
            }
        }
    }

    /// How many commands go out around the signal: half before it, half while the bridge stops.
    static let aroundTheSignal = 300

    /// Commands still on their way when SIGTERM comes: each is answered exactly once, by this
    /// bridge (carried out, refused as busy, or "shutting down") or, when the broker still held
    /// it, by the next start, from the persistent session. None is lost, none answered twice.
    @Test func commandsArrivingAroundTheSignalAreAnsweredOnceByThisBridgeOrTheNext() async throws {
        try await AllUpstreams.run { upstreams in
            let config = try upstreams.configFile()
            let first = try BridgeProcess(["run", "--config", config])
            defer { first.child.terminate(signal: SIGKILL) }
            try await Observer.watching(upstreams.broker, subscribe: ["home/#"]) { observer in
                try await AllUpstreams.waitUntilServing(observer)
                let burst = CommandBurst(observer)
                let commands = [
                    ("home/reef/outlet/heater/set", "ON"), ("home/unifi/rule/downtime-emma/set", "OFF"), ("home/pihole/main/pause", "30"),
                ]
                for index in 0..<Self.aroundTheSignal {
                    if index == Self.aroundTheSignal / 2 { first.signal(SIGTERM) }
                    let (topic, payload) = commands[index % commands.count]
                    try await burst.send(topic, payload)
                }
                let result = try await first.finish(timeout: .seconds(20))
                #expect(result.status == 0, "\(result.stderr)")
                let refusedAtShutdown = burst.answered().filter { $0.answers.first?["error"]?.stringValue == "the bridge is shutting down" }

                let second = try BridgeProcess(["run", "--config", config])
                defer { second.child.terminate(signal: SIGKILL) }
                do {
                    try await waitUntil("every command answered", timeout: .seconds(30)) { burst.answeredCount == burst.sent.count }
                } catch {
                    let answered = burst.answered()
                    let unanswered = answered.indices.filter { answered[$0].answers.isEmpty }
                    let secondLog = (try? String(contentsOfFile: second.stderrPath, encoding: .utf8)) ?? ""
                    Issue.record("""
                        unanswered: commands \(unanswered) of \(burst.sent.count) (the signal came before \(Self.aroundTheSignal / 2))
                        the first bridge's warnings and MQTT lines: \(warningsAndMQTT(result.stderr))
                        the second's: \(warningsAndMQTT(secondLog))
                        the broker's last lines: \(upstreams.broker.log().split(separator: "\n").suffix(40).joined(separator: "\n"))
                        """)
                    throw error
                }
                // Time for a second answer to any of them to arrive, were one to be sent.
                try await Task.sleep(for: .milliseconds(500))
                for (command, answers) in burst.answered() where answers.count != 1 {
                    Issue.record("\(command.topic) \(command.payload) has \(answers.count) answers: \(answers)")
                }
                // Carried out, or refused only for the two reasons a burst and a shutdown give: the
                // next start carries out what the session kept, it does not refuse it.
                let refusals = burst.answered().compactMap { $0.answers.first?["error"]?.stringValue }
                #expect(refusals.allSatisfy { $0.hasPrefix("busy") || $0 == "the bridge is shutting down" }, "\(Set(refusals))")
                // A clean DISCONNECT, not a reset: a socket closed with unread bytes in it resets, and
                // the broker then drops the last answers written before it.
                #expect(upstreams.broker.log().contains("Received DISCONNECT from home2mqtt"), "the first bridge did not say goodbye")
                #expect(!result.stderr.contains("not handled before the disconnect"), "\(result.stderr.split(separator: "\n").filter { $0.contains("not handled") })")
                #expect(!refusedAtShutdown.isEmpty, "no command reached the first bridge while it stopped: the test tried nothing")
            }
        }
    }
}

private func warningsAndMQTT(_ log: String) -> String {
    log.split(separator: "\n").filter { $0.contains(" warning ") || $0.contains(" error ") || $0.contains("MQTT") }.joined(separator: "\n")
}
