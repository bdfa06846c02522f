#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BridgeCore
import PlainText

/// `broker-config/demo.conf`, found and turned into the configuration of the demo's mosquitto.
enum DemoBrokerConfig {
    static let relativePath = "broker-config/demo.conf"

    /// The file given with `--broker-config`, else `broker-config/demo.conf` in the current
    /// directory or in a folder above the executable (a checkout's `.build/debug/home2mqtt`),
    /// so the demo works from anywhere in the checkout and from tests.
    static func locate(explicit: String?) throws -> String {
        if let explicit {
            guard FileManager.default.isReadableFile(atPath: explicit) else {
                throw DemoError("cannot read the broker configuration '\(explicit)'")
            }
            return explicit
        }
        var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        // This executable: /proc/self/exe on Linux (Foundation's Bundle would link ICU's data in), else as called.
        let executable = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            candidates.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        for candidate in candidates {
            let path = candidate.appendingPathComponent(relativePath).path
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        throw DemoError("cannot find \(relativePath); run the demo from the repository (scripts/demo) or pass --broker-config PATH")
    }

    /// The file's text with its `listener` line moved to `bindAddress:port`: the file stays
    /// runnable on its own (`mosquitto -c broker-config/demo.conf`), the demo only picks the port,
    /// and the broker it starts never listens beyond loopback whatever the file says.
    /// Started by root, mosquitto would switch to its own user; a process that changes its user
    /// loses its parent-death signal, and would outlive a demo killed outright (see
    /// `ChildProcess`). As `root`, it keeps the user the demo has (for anyone but root it is a no-op).
    static let keepTheDemosUser = "user root"

    static func render(file: String, port: Int, bindAddress: String) throws -> String {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw DemoError("cannot read the broker configuration '\(file)': \(fileErrorText(error))")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let listeners = lines.indices.filter { lines[$0].trimmed().hasPrefix("listener ") }
        let listener = "listener \(port) \(bindAddress)"
        switch listeners.count {
        case 0: lines.insert(listener, at: 0)
        case 1: lines[listeners[0]] = listener
        default: throw DemoError("\(file) has \(listeners.count) listener lines; the demo's broker needs exactly one (it sets its port)")
        }
        lines.append(keepTheDemosUser)
        return lines.joined(separator: "\n")
    }
}
