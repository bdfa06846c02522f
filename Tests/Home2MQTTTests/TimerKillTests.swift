import BellasReefSimulator
import BellasReefTestSupport
import BridgeCore
import BridgeTestSupport
import Foundation
import MQTTTestSupport
import Testing

/// Issue 11: the process SIGKILLed, again and again, while a burst of timed commands has it
/// rewriting `timers.json`. After each kill the file must read back whole (never set aside as
/// corrupt) and hold every promise that was answered `ok`. `HOME2MQTT_KILL_ROUNDS` runs more.
@Suite struct TimerKillTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["HOME2MQTT_KILL_ROUNDS"] ?? "") ?? 20
    /// Outlets by topic key, with their ids (a timer is kept by id).
    static let outlets = [("return-pump", SimulatedOutlet.observed[1].id), ("heater", SimulatedOutlet.observed[2].id)]

    @Test func aKillMidWriteLeavesAWholeFileWithEveryAnsweredPromise() async throws {
        try await ReefFixture.withLastingSimulator { fixture in
            let stateDirectory = temporaryStateDirectory()
            let config = try BridgeProcess.writeConfig(
                "mqtt:\n  port: \(fixture.broker.port)\nbridge:\n  state_dir: \(stateDirectory)\n" + ReefFixture.yaml(fixture.simulator))
            var promised: [String: Date] = [:]
            var killedMidWrite = 0
            try await Observer.watching(fixture.broker, subscribe: ["home/#"]) { observer in
                for round in 0..<Self.rounds {
                    let bridge = try BridgeProcess(["run", "--config", config])
                    defer { bridge.child.terminate(signal: SIGKILL) }
                    _ = try await observer.latest("home/bridge/state", timeout: .seconds(30)) { $0 == "online" }
                    let burst = CommandBurst(observer)
                    try await sendTimedCommands(burst, to: bridge)
                    _ = try await bridge.finish()
                    // The last will: the next round's `online` is then the next process's.
                    _ = try await observer.latest("home/bridge/state", timeout: .seconds(30)) { $0 == "offline" }
                    if FileManager.default.fileExists(atPath: stateDirectory + "/timers.json.tmp") { killedMidWrite += 1 }

                    for command in burst.sent {
                        guard let answer = burst.answers(command).first, answer["status"] == "ok",
                              let text = answer["data"]?["restore_at"]?.stringValue else { continue }
                        let due = try Date(text, strategy: .iso8601)
                        let key = command.topic.split(separator: "/")[3]
                        let outlet = Self.outlets.first { $0.0 == key }!.1
                        promised[outlet] = max(promised[outlet] ?? due, due)
                    }
                    try expectWholeFileKeeping(promised, in: stateDirectory, round: round)
                }
            }
            #expect(!promised.isEmpty, "some timed commands were answered before the kills")
            print("TimerKillTests: \(Self.rounds) kills, \(killedMidWrite) between the temporary file's creation and the rename")
        }
    }

    /// Timed commands in turn to two outlets, each sent once the one before has been answered
    /// (so the queue never refuses one as busy); then one more, and the kill a few milliseconds
    /// after it, while the bridge is switching the outlet or saving the timer.
    private func sendTimedCommands(_ burst: CommandBurst, to bridge: BridgeProcess) async throws {
        let answered = Int.random(in: 1...8)
        for index in 0...answered {
            let (outlet, _) = Self.outlets[index % 2]
            let state = index % 4 < 2 ? "off" : "on"
            let command = try await burst.send("home/reef/outlet/\(outlet)/set", #"{"state":"\#(state)","for":3600}"#)
            if index < answered { _ = try await burst.answer(command) }
        }
        try await Task.sleep(for: .microseconds(Int.random(in: 0...20_000)))
        bridge.signal(SIGKILL)
    }
}

/// Reads the timers as the next start will: whole (nothing set aside), and each outlet's timer
/// due no earlier than the latest promise answered for it.
private func expectWholeFileKeeping(_ promised: [String: Date], in directory: String, round: Int) throws {
    let capture = LogCapture()
    let store = try TimerStore(directory: directory, logger: capture.logger("timers"))
    #expect(!capture.all.contains { $0.contains("set aside") }, "round \(round): \(capture.all)")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(!files.contains { $0.contains(".corrupt-") }, "round \(round): \(files)")
    let pending = IntegrationTimers(store: store, integration: "reef").pending
    for (outlet, due) in promised {
        let timer = pending.first { $0.key.contains(outlet) }
        #expect(timer != nil, "round \(round): the promise for \(outlet) is gone: \(pending)")
        if let timer { #expect(timer.dueAt >= due, "round \(round): \(outlet) due \(timer.dueAt), promised \(due)") }
    }
}
