#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ChildProcess

/// Runs the `openssl` command-line tool (installed by `scripts/install-deps`).
enum OpenSSL {
    struct Failure: Error, CustomStringConvertible {
        let arguments: [String]
        let output: String
        var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(output)" }
    }

    /// Runs `openssl arguments…` and returns what it printed (stdout and stderr together).
    @discardableResult
    static func run(_ arguments: [String]) async throws -> String {
        // Foundation's `Process` would link the full Foundation, and ICU's data with it, into the
        // binary that runs the demo's simulators; ChildProcess writes the output to a file instead.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("openssl-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let process = try ChildProcess(path: "/usr/bin/env", arguments: ["openssl"] + arguments, logPath: outputPath)
        let exitCode = try await process.exitCode()
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard exitCode == 0 else { throw Failure(arguments: arguments, output: output) }
        return output
    }
}
