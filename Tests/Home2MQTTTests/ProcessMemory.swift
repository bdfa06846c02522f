import Foundation
import MQTTTestSupport

/// A field of `/proc/PID/status` in kB (`VmRSS`, `VmHWM`, `RssAnon`): a process's own memory.
func memory(_ pid: pid_t, _ field: String) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
          let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
        throw TestSupportError("no \(field) in /proc/\(pid)/status")
    }
    return kilobytes
}
