import ArgumentParser
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
    /// The bridge answered, with an error: exit 1.
    case refused(String)
    /// No broker, no bridge, or no answer in time: exit 2.
    case unreachable(String)
    /// The connection settings are wrong: exit 78, as for the bridge's own configuration.
    case configuration(String)

    var exitCode: ExitCode {
        switch self {
        case .refused: ExitCode(1)
        case .unreachable: ExitCode(2)
        case .configuration: configErrorExitCode
        }
    }

    var description: String {
        switch self {
        case .refused(let message): "error: \(message)"
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
