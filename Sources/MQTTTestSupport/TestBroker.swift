import Foundation
import LoopbackSocket
import Synchronization

/// A real `mosquitto` broker process on a free loopback port, for tests.
///
/// The broker has no persistence, so `restart()` loses retained messages and sessions, which is what
/// reconnect tests want. Always `stop()` it (or use `withTestBroker`); `deinit` kills it as a safety net.
public final class TestBroker: Sendable {
    public let host = "127.0.0.1"
    public let port: Int
    /// Scratch directory for the config, the log and anything the test puts there (password files).
    public let directory: URL
    public let extraConfig: String
    public let logging: Logging
    private let process = Mutex<ChildProcess?>(nil)
    private let generation = Mutex(0)
    /// While stopped, the port stays bound without listening: clients are refused, as by a broker
    /// that is down, and no other test's broker or connection takes the port before `restart()`
    /// (mosquitto binds beside it: both reuse the address).
    private let reservation = Mutex<BoundLoopbackSocket?>(nil)

    /// Path of the broker executable; `MOSQUITTO_BIN` overrides it.
    public static var executable: String {
        if let path = ProcessInfo.processInfo.environment["MOSQUITTO_BIN"] { return path }
        for path in ["/usr/sbin/mosquitto", "/usr/bin/mosquitto", "/usr/local/sbin/mosquitto", "/opt/homebrew/sbin/mosquitto"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return "/usr/sbin/mosquitto"
    }

    /// What the broker writes to its log (`log()`).
    public enum Logging: Sendable {
        /// Every packet too (`log_type all`): tests read the debug lines, a DISCONNECT received, say.
        case everything
        /// mosquitto's default, as `broker-config/` deploys it: errors, warnings, notices and
        /// information (connections, not packets). For benchmarks: a line for every packet is a
        /// large part of the broker's own CPU, which a deployed broker does not spend.
        case asDeployed
    }

    /// Starts a broker. `config` is appended to the generated mosquitto.conf (e.g. `password_file`,
    /// `acl_file`, more listeners). `allow_anonymous true` is added unless `config` sets it.
    /// `prepare` runs before the broker starts, with the scratch directory (to write password files).
    public init(config: String = "", logging: Logging = .everything, prepare: (URL) throws -> Void = { _ in }) async throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("test-broker-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        extraConfig = config
        self.logging = logging
        try prepare(directory)
        var lastError: (any Error)?
        for _ in 0..<10 {
            let candidate = try LoopbackPort.free()
            do {
                let started = try await Self.launch(port: candidate, directory: directory, extraConfig: config, logging: logging, attempt: 0)
                port = candidate
                process.withLock { $0 = started }
                return
            } catch {
                lastError = error
            }
        }
        throw lastError ?? TestSupportError("could not start mosquitto")
    }

    deinit {
        process.withLock { process in
            process?.terminate(signal: SIGKILL)
            process = nil
        }
    }

    /// The running mosquitto's process id (benchmarks read its CPU time), `nil` once stopped.
    public var pid: pid_t? { process.withLock { $0?.pid } }

    /// Stops the broker with SIGTERM and waits for it to exit. Idempotent.
    public func stop() {
        let running = process.withLock { process in
            defer { process = nil }
            return process
        }
        running?.terminate()
        if running != nil { reservation.withLock { $0 = try? BoundLoopbackSocket(port: port, reuseAddress: true) } }
    }

    /// Stops the broker and starts a fresh one on the same port (retained messages are gone).
    public func restart() async throws {
        stop()
        let attempt = generation.withLock { value in
            value += 1
            return value
        }
        var lastError: (any Error)?
        // The port is held for it; retry a little in case mosquitto fails to start.
        for _ in 0..<20 {
            do {
                let started = try await Self.launch(
                    port: port, directory: directory, extraConfig: extraConfig, logging: logging, attempt: attempt)
                process.withLock { $0 = started }
                reservation.withLock { $0 = nil }
                return
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        throw lastError ?? TestSupportError("could not restart mosquitto on port \(port)")
    }

    /// The broker's log once it shows the end of `clientID`'s connection: after a DISCONNECT
    /// ("Client … disconnected."), or without one ("… closed its connection.", a socket error).
    /// A client's `disconnect()` returns when its socket is closed, which can be before the
    /// broker has read what came last on it.
    public func logAfterConnectionEnd(of clientID: String, timeout: Duration = .seconds(5)) async throws -> String {
        let ends = ["Client \(clientID) disconnected.", "Client \(clientID) closed its connection.", "Socket error on client \(clientID),"]
        try await waitUntil("the broker to log the end of \(clientID)'s connection", timeout: timeout) {
            let log = log()
            return ends.contains { log.contains($0) }
        }
        return log()
    }

    /// The broker's log so far (all restarts), for failure messages.
    public func log() -> String {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".log") }.sorted().compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
    }

    private static func launch(
        port: Int, directory: URL, extraConfig: String, logging: Logging, attempt: Int
    ) async throws -> ChildProcess {
        // `user root`: run by root, mosquitto would switch users and so lose the parent-death
        // signal that stops it when a test run is killed (see `ChildProcess`); a no-op otherwise.
        var lines = ["listener \(port) 127.0.0.1", "persistence false", "log_dest stderr", "user root"]
        if logging == .everything { lines.append("log_type all") }
        if !extraConfig.contains("allow_anonymous") { lines.append("allow_anonymous true") }
        lines.append(extraConfig)
        let configURL = directory.appendingPathComponent("mosquitto-\(port).conf")
        try lines.joined(separator: "\n").appending("\n").write(to: configURL, atomically: true, encoding: .utf8)
        let logURL = directory.appendingPathComponent("mosquitto-\(port)-\(attempt)-\(UUID().uuidString.prefix(6)).log")
        let process = try ChildProcess(path: executable, arguments: ["-c", configURL.path], logPath: logURL.path)

        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                throw TestSupportError("mosquitto exited on port \(port):\n\(log)")
            }
            if LoopbackPort.accepts(port: port) { return process }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate(signal: SIGKILL)
        throw TestSupportError("mosquitto did not accept connections on port \(port) within 10 s")
    }
}

/// Runs `body` with a fresh broker and always stops it afterwards.
public func withTestBroker<T>(
    config: String = "",
    logging: TestBroker.Logging = .everything,
    prepare: (URL) throws -> Void = { _ in },
    _ body: (TestBroker) async throws -> T
) async throws -> T {
    let broker = try await TestBroker(config: config, logging: logging, prepare: prepare)
    do {
        let result = try await body(broker)
        broker.stop()
        return result
    } catch {
        broker.stop()
        throw error
    }
}
