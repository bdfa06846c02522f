import BridgeCore
import BridgeTestSupport
import Foundation
import Logging
import MQTTTestSupport
import Synchronization
import Testing

@Suite struct TimedCommandTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func forAndUntil() throws {
        #expect(try TimedCommand.duration(in: [:], now: now) == nil)
        #expect(try TimedCommand.duration(in: ["for": 600], now: now) == .seconds(600))
        let until = now.addingTimeInterval(90).formatted(.iso8601)
        #expect(try TimedCommand.duration(in: ["until": .string(until)], now: now) == .seconds(90))
    }

    @Test(arguments: [
        ["for": -5], ["for": 0], ["for": 1.5], ["for": "60"], ["for": 1e12], ["for": 60, "until": "2026-01-01T00:00:00Z"],
        ["until": "tomorrow"], ["until": "2000-01-01T00:00:00Z"], ["until": 5],
    ] as [[String: JSONValue]])
    func refusesWhatCannotBeMeant(object: [String: JSONValue]) {
        #expect(throws: CommandError.self) { try TimedCommand.duration(in: object, now: now) }
    }
}

@Suite struct TimerStoreTests {
    private let logger = Logger(label: "timers")

    private func timer(_ key: String, _ restore: JSONValue = ["enabled": true]) -> PersistedTimer {
        PersistedTimer(integration: "test", key: key, restore: restore, dueAt: Date().addingTimeInterval(60))
    }

    @Test func aTimerSurvivesARestartAndANewCommandReplacesIt() async throws {
        let directory = temporaryStateDirectory()
        let first = IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test")
        try await first.set(key: "rule/a", restore: ["enabled": true], after: .seconds(3600))
        try await first.set(key: "rule/b", restore: ["enabled": false], after: .seconds(60))
        let replaced = try await first.set(key: "rule/a", restore: ["enabled": false], after: .seconds(120))
        #expect(replaced?.restore == ["enabled": true])

        let restarted = IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test")
        #expect(restarted.pending.map(\.key) == ["rule/b", "rule/a"])
        #expect(restarted.pending(key: "rule/a")?.restore == ["enabled": false])
        #expect(try await restarted.cancel(key: "rule/b") != nil)
        let again = IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test")
        #expect(again.pending.map(\.key) == ["rule/a"])
        #expect(IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "other").pending.isEmpty)
    }

    @Test func aCorruptFileIsSetAsideNotACrash() async throws {
        let directory = temporaryStateDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data("{\"version\":1,\"timers\":[{\"half".utf8).write(to: URL(fileURLWithPath: directory + "/timers.json"))
        let timers = IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test")
        #expect(timers.pending.isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.contains { $0.hasPrefix("timers.json.corrupt-") })
        try await timers.set(key: "x", restore: nil, after: .seconds(5))
        #expect(IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test").pending.count == 1)
    }

    /// A plain command cancels its object's timer, and mostly there is none: that must cost no
    /// write (and no fsync) of the file.
    @Test func cancellingNoTimerWritesNothing() async throws {
        let directory = temporaryStateDirectory()
        let timers = IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test")
        #expect(try await timers.cancel(key: "rule/a") == nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/timers.json"))
        try await timers.set(key: "rule/a", restore: ["enabled": true], after: .seconds(60))
        #expect(FileManager.default.fileExists(atPath: directory + "/timers.json"))
    }

    @Test func anUnusableStateDirectoryNamesTheKey() throws {
        let file = temporaryStateDirectory()
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let error = #expect(throws: ConfigError.self) { try TimerStore(directory: file + "/sub", logger: logger) }
        #expect(error?.key == "bridge.state_dir")
    }

    @Test func aTimerReadBackAfterARestartIsNeverDueEarlier() async throws {
        let directory = temporaryStateDirectory()
        let first = IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test")
        let asked = Date().addingTimeInterval(2.5)
        try await first.set(key: "x", restore: nil, after: .milliseconds(2500))
        // The file keeps whole seconds; the due time read back must not have lost the fraction.
        let second = IntegrationTimers(store: try TimerStore(directory: directory, logger: logger), integration: "test")
        #expect(try #require(second.pending(key: "x")).dueAt >= asked)
    }

    @Test func dueTimersFireOnceAndFailedRestoresAreTriedAgain() async throws {
        let directory = temporaryStateDirectory()
        let store = try TimerStore(directory: directory, logger: logger, retryDelay: .milliseconds(200))
        let timers = IntegrationTimers(store: store, integration: "test")
        let fired = Mutex<[String]>([])
        try await timers.set(key: "ok", restore: nil, after: .milliseconds(100))
        try await timers.set(key: "flaky", restore: nil, after: .milliseconds(100))
        try await timers.set(key: "later", restore: nil, after: .seconds(3600))
        let runner = Task {
            await timers.run { timer in
                let attempts = fired.withLock { list in
                    list.append(timer.key)
                    return list.filter { $0 == timer.key }.count
                }
                return timer.key == "ok" || attempts >= 3
            }
        }
        try await waitUntil("the flaky restore succeeds on its third try", timeout: .seconds(20)) {
            fired.withLock { $0.filter { $0 == "flaky" }.count } == 3
        }
        try await waitUntil("both are gone from the file") {
            (try? TimerStore(directory: directory, logger: logger)).map { IntegrationTimers(store: $0, integration: "test").pending.map(\.key) } == ["later"]
        }
        runner.cancel()
        await runner.value
        #expect(fired.withLock { $0.filter { $0 == "ok" }.count } == 1)
        #expect(!fired.withLock { $0.contains("later") })
    }
}
