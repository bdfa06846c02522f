import Foundation
import MQTTTestSupport
import Synchronization
import Testing

@Suite struct ChildProcessTests {
    /// A child is sent SIGTERM when this process dies, and only then: Linux sends it when the
    /// *thread* that spawned the child ends, and the threads that run tasks come and go.
    @Test func aChildOutlivesTheThreadThatStartedIt() async throws {
        let child = Mutex<Result<ChildProcess, any Error>?>(nil)
        let thread = Thread {
            let spawned = Result { try ChildProcess(path: "/bin/sleep", arguments: ["30"], logPath: "/dev/null") }
            // The signal is armed just before the exec: end the thread only once the child runs
            // `sleep`, or its end would come too early to be felt either way.
            if case .success(let process) = spawned {
                let deadline = ContinuousClock.now + .seconds(10)
                while commandName(process.pid) != "sleep", ContinuousClock.now < deadline { usleep(1_000) }
            }
            child.withLock { $0 = spawned }
        }
        thread.start()
        try await waitUntil("the spawning thread ended", timeout: .seconds(10)) { thread.isFinished }
        let sleeper = try #require(child.withLock { $0 }).get()
        defer { sleeper.terminate(signal: SIGKILL) }
        try await Task.sleep(for: .milliseconds(300))
        #expect(sleeper.isRunning, "the child died with the thread that started it (status \(sleeper.terminationStatus ?? -1))")
    }

    @Test func aMissingExecutableIsRefusedByName() {
        #expect {
            _ = try ChildProcess(path: "/nonexistent/mosquitto", arguments: [], logPath: "/dev/null")
        } throws: { error in
            "\(error)".contains("/nonexistent/mosquitto")
        }
    }
}

/// `/proc/PID/comm`: the name of the program a process runs now.
private func commandName(_ pid: pid_t) -> String? {
    (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
}
