#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Gravity as the simulator keeps it: the blocklist's size and age, how a run goes, and
/// how many runs started and ended.
struct SimulatedGravity: Sendable {
    var domains = 121_860
    /// `nil`: unknown (the summary then answers `last_update: 0`).
    var lastUpdate: Date?
    var runDuration: Duration = .seconds(1)
    var runFails = false
    var runsStarted = 0
    var runsFinished = 0

    var isRunning: Bool { runsStarted > runsFinished }

    /// What `pihole -g` prints, line by line. With `color`, FTL's `color=true`: the marks are
    /// coloured and a finished step redraws its line with `\r` + `ESC[K`, as in a terminal.
    static func output(domains: Int, fails: Bool, color: Bool) -> [String] {
        let tick = color ? "[\u{1B}[1;32m✓\u{1B}[0m]" : "[✓]"
        let cross = color ? "[\u{1B}[1;31m✗\u{1B}[0m]" : "[✗]"
        let info = "[i]"
        func step(_ text: String) -> String {
            color ? "  \(info) \(text)...\r\u{1B}[K  \(tick) \(text)" : "  \(tick) \(text)"
        }
        var lines = [
            "  \(info) Neutrino emissions detected...",
            "",
            step("Pulling blocklist source list into range"),
            "",
            step("Preparing new gravity database"),
            "  \(info) Using libz compression",
            "",
            "  \(info) Target: https://raw.githubusercontent.com/StevenBlack/hosts/master/hosts",
            step("Status: Retrieval successful"),
            "  \(info) Imported \(domains) domains",
            "",
        ]
        if fails {
            lines += [
                "  \(info) Target: https://blocklist.invalid/hosts.txt",
                "  \(cross) Status: Connection Refused",
                "  \(cross) List download failed: no cached list available",
                "",
            ]
        }
        lines += [
            step("Building tree"),
            step("Swapping databases"),
            "  \(tick) The old database remains available",
            "  \(info) Number of gravity domains: \(domains) (\(domains) unique domains)",
            "  \(info) Number of exact denied domains: 0",
            "  \(info) Number of regex denied filters: 0",
            step("Cleaning up stray matter"),
            "",
            "  \(tick) Done.",
        ]
        return lines
    }
}
