import Foundation

/// Runs the `openssl` command-line tool (installed by `scripts/install-deps`).
enum OpenSSL {
    struct Failure: Error, CustomStringConvertible {
        let arguments: [String]
        let output: String
        var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(output)" }
    }

    /// Runs `openssl arguments…` and returns what it printed (stdout and stderr together).
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(arguments: arguments, output: output) }
        return output
    }
}
