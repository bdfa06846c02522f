import ChildProcess
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import ServiceLifecycle
import Synchronization

/// The demo's own broker: a mosquitto child on loopback that lives exactly as long as the demo.
///
/// It is started in `run()`, inside the service group that handles SIGINT, so no Ctrl-C can
/// arrive between its start and the code that stops it. It runs in a process group of its own:
/// a terminal's Ctrl-C reaches only the demo, which stops the broker last, after the bridge has
/// said `offline` through it.
final class MosquittoService: Service {
    let port: Int
    private let executable: String
    private let directory: URL
    private let child = Mutex<ChildProcess?>(nil)

    private var configPath: String { directory.appendingPathComponent("mosquitto.conf").path }
    var logPath: String { directory.appendingPathComponent("mosquitto.log").path }

    /// Writes `configuration` to a scratch directory; starts nothing yet.
    init(executable: String, configuration: String, port: Int) throws {
        self.executable = executable
        self.port = port
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("home2mqtt-demo-broker-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try configuration.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    func run() async throws {
        let process = try ChildProcess(path: executable, arguments: ["-c", configPath], logPath: logPath, ownProcessGroup: true)
        child.withLock { $0 = process }
        let exitedByItself: Bool
        do {
            try await cancelWhenGracefulShutdown {
                _ = try await process.exitCode()
            }
            exitedByItself = true
        } catch {
            exitedByItself = false
        }
        // Read before `stop()` removes the scratch directory.
        let log = exitedByItself ? ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "") : ""
        await stop()
        if exitedByItself {
            throw DemoError("mosquitto on port \(port) stopped by itself (exit status \(process.terminationStatus ?? -1)); its log:\n\(log)")
        }
    }

    /// SIGTERM, then SIGKILL if it has not gone within 5 s; removes the scratch directory. Idempotent.
    func stop() async {
        let running = child.withLock { child in
            defer { child = nil }
            return child
        }
        if let running {
            running.signal(SIGTERM)
            // Plain sleeps, not Task.sleep: this runs in a cancelled task too (a failed sibling),
            // where Task.sleep returns at once. mosquitto exits within milliseconds of SIGTERM.
            let deadline = ContinuousClock.now + .seconds(5)
            while running.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            if running.isRunning { running.terminate(signal: SIGKILL) }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
