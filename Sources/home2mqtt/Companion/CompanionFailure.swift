import ArgumentParser
import BridgeCore
#if canImport(FoundationEssentials)
import BridgeComposition
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Why a companion command did not succeed, and the exit status that says so to a script.
enum CompanionFailure: Error, Equatable, CustomStringConvertible {
    /// The bridge answered, with an error: exit 1, or the status of its `code` (see `exitStatus`).
    case refused(String, code: CommandErrorCode? = nil)
    /// No broker, no bridge, or no answer in time: exit 2.
    case unreachable(String)
    /// The connection settings are wrong: exit 78, as for the bridge's own configuration.
    case configuration(String)

    var exitCode: ExitCode {
        switch self {
        case .refused(_, let code): ExitCode(code?.exitStatus ?? 1)
        case .unreachable: ExitCode(2)
        case .configuration: configErrorExitCode
        }
    }

    var description: String {
        switch self {
        case .refused(let message, let code): "error: \(message)" + (code.map { " (\($0.rawValue))" } ?? "")
        case .unreachable(let message): message
        case .configuration(let message): "configuration error: \(message)"
        }
    }
}

/// Runs a companion command's body: a failure is printed to stderr and becomes the exit status.
func runCompanion(_ body: () async throws(CompanionFailure) -> Void) async throws {
    do {
        try await body()
    } catch {
        printError(error.description)
        throw error.exitCode
    }
}

func printError(_ text: String) {
    writeNow("home2mqtt: \(text)\n", to: STDERR_FILENO)
}

extension CommandErrorCode {
    /// The companion's exit status for an error answer with this code: a script tells "try again
    /// later" (7, 10, 11, 12) from "this will never work" (3, 4, 5, 6, 8, 9) without reading words.
    var exitStatus: Int32 {
        switch self {
        case .invalidPayload: 3
        case .unknownTarget: 4
        case .notFound: 5
        case .conflict: 6
        case .upstreamUnavailable: 7
        case .upstreamRefused: 8
        case .unauthorized: 9
        case .timeout: 10
        case .busy: 11
        case .notReady: 12
        }
    }
}
