import Foundation

/// What the process and the product cost to hold.
enum Footprint {
    /// A process's resident memory (`VmRSS` in /proc/PID/status), in KiB. For this process: the
    /// bridge, the simulators and the harness together; mosquitto is not in it.
    static func residentKiB(pid: String = "self", field: String = "VmRSS") -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// A process's `VmRSS`, and the anonymous part of it (`RssAnon`), in KiB.
    static func resident(pid: Int32) -> (kib: Int, anonymousKiB: Int?)? {
        let pid = String(pid)
        return residentKiB(pid: pid).map { ($0, residentKiB(pid: pid, field: "RssAnon")) }
    }

    /// A process's CPU time so far, user and system (/proc/PID/stat's utime and stime, in clock
    /// ticks of 10 ms on Linux), in seconds.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The stripped release binary `scripts/build-release` leaves, if there is one.
    static let distributedBinary = ".build/dist/home2mqtt"

    static func strippedBinaryBytes() -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: distributedBinary))?[.size] as? Int
    }
}
