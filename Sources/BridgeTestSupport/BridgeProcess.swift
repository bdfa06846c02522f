import Foundation
import MQTTTestSupport

/// The built `home2mqtt` executable, run as a user would run it: by the tests of the command
/// line and by the benchmark, which measures the real binary's footprint.
public struct BridgeProcess: Sendable {
    /// `swift build --build-tests` puts the executable beside the test bundle (and
    /// `swift build -c release` beside `home2mqtt-bench`).
    public static var executable: String { executable(named: "home2mqtt") }

    /// One of the package's executables (`home2mqtt`, `home2mqtt-demo`), found as `executable` is.
    public static func executable(named name: String) -> String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path),
              directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent(name).path
    }

    public let child: ChildProcess
    public let stdoutPath: String
    public let stderrPath: String

    public init(_ arguments: [String], environment: [String: String] = [:], executable: String = Self.executable) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("home2mqtt-\(UUID().uuidString)")
        stdoutPath = scratch.path + ".out"
        stderrPath = scratch.path + ".err"
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HOME2MQTT_") }
        // Each bridge process keeps its timers to itself, not in the user's state directory.
        inherited["XDG_STATE_HOME"] = scratch.path + ".state"
        child = try ChildProcess(
            path: executable, arguments: arguments,
            environment: inherited.merging(environment, uniquingKeysWith: { _, new in new }),
            logPath: stdoutPath, errorPath: stderrPath
        )
    }

    /// Waits for the exit, with a deadline; returns the status and what was printed.
    public func finish(timeout: Duration = .seconds(20)) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await waitUntil("home2mqtt to exit", timeout: timeout) { !child.isRunning }
        let stdout = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return (child.terminationStatus ?? -1, stdout, stderr)
    }

    /// What it has printed so far, standard output and error.
    public var output: String {
        [stdoutPath, stderrPath].map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }.joined()
    }

    public func signal(_ number: Int32) {
        child.signal(number)
    }

    public static func writeConfig(_ yaml: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("home2mqtt-\(UUID().uuidString).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
