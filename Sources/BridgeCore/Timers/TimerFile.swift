#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `timers.json` in the state directory: read at start, replaced whole at every change.
///
/// Replaced, never rewritten in place: the new content goes to a temporary file that is flushed
/// to disk and then renamed over the old one, so a bridge killed mid-write leaves the old file
/// or the new one, never half of each.
struct TimerFile: Sendable {
    static let name = "timers.json"
    private static let formatVersion = 1

    let url: URL

    init(directory: String) {
        url = URL(fileURLWithPath: directory).appendingPathComponent(Self.name)
    }

    enum LoadError: Error {
        case unreadable(String)
    }

    /// The saved timers; none when there is no file yet.
    func load() throws(LoadError) -> [PersistedTimer] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            guard let contents = JSONValue.parse(try Data(contentsOf: url)) else { throw LoadError.unreadable("not JSON") }
            guard let version = contents["version"]?.numberValue, version == Double(Self.formatVersion) else {
                throw LoadError.unreadable("format version \(contents["version"]?.encodedString() ?? "missing"), this bridge writes \(Self.formatVersion)")
            }
            guard let listed = contents["timers"]?.arrayValue else { throw LoadError.unreadable("no list of timers") }
            let timers = listed.compactMap(PersistedTimer.init(json:))
            guard timers.count == listed.count else {
                throw LoadError.unreadable("a timer lacks its integration, key, restore or ISO 8601 dueAt")
            }
            return timers
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError.unreadable("\(error)")
        }
    }

    /// Moves an unreadable file out of the way (kept for a person to look at) and says where.
    func setAside(now: Date = Date()) -> String {
        let aside = url.path + ".corrupt-\(Int(now.timeIntervalSince1970))"
        try? FileManager.default.moveItem(atPath: url.path, toPath: aside)
        return aside
    }

    func save(_ timers: [PersistedTimer]) throws {
        let contents: JSONValue = ["version": .number(Double(Self.formatVersion)), "timers": .array(timers.map(\.json))]
        let data = Data(contents.encoded())
        let temporary = url.path + ".tmp"
        try Self.writeDurably(data, to: temporary)
        guard rename(temporary, url.path) == 0 else { throw Self.lastPOSIXError() }
    }

    /// Writes `data` to `path` and flushes it to the disk, so that the rename that follows never
    /// makes an empty or partial file the timers' file after a power cut.
    private static func writeDurably(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw lastPOSIXError() }
        defer { close(descriptor) }
        var written = 0
        while written < data.count {
            let result = data.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            guard result > 0 else { throw lastPOSIXError() }
            written += result
        }
        guard fsync(descriptor) == 0 else { throw lastPOSIXError() }
    }

    /// What the last failed system call said (the caller logs the file's path beside it).
    private static func lastPOSIXError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
