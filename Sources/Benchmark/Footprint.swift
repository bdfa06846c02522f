import Foundation

/// What the process and the product cost to hold.
enum Footprint {
    /// This process's resident memory (`VmRSS` in /proc/self/status), in KiB: the bridge, the
    /// simulators and the harness together, since they share the process; mosquitto is not in it.
    static func residentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// The stripped release binary `scripts/build-release` leaves, if there is one.
    static let distributedBinary = ".build/dist/home2mqtt"

    static func strippedBinaryBytes() -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: distributedBinary))?[.size] as? Int
    }
}
