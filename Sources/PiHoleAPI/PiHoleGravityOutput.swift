import PlainText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reduces the streamed output of `pihole -g` to a ``PiHoleGravityResult`` as it arrives, in
/// bounded memory: a run prints thousands of lines and only the tail and the failures matter.
///
/// FTL relays the output as it reads it from a pipe, so a chunk may end in the middle of a
/// line or of a UTF-8 character; lines are cut on `\n` only. The script redraws a line with
/// `\r` + `ESC[K` (`[i] Pulling…` becomes `[✓] Pulling…`): what follows the last `\r` is what
/// a terminal would show.
struct PiHoleGravityOutput: Sendable {
    static let keptLines = 10
    static let keptFailures = 20
    /// A longer line is cut: nothing gravity prints comes near it.
    static let maxLineBytes = 4096
    static let failureMark = "[✗]"

    private var pending: [UInt8] = []
    private var lastLines: [String] = []
    private var failures: [String] = []
    private var failureCount = 0
    private var lineCount = 0

    init() {}

    mutating func append(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                completeLine()
            } else if pending.count < Self.maxLineBytes {
                pending.append(byte)
            }
        }
    }

    /// The result, counting an unterminated last line.
    var result: PiHoleGravityResult {
        var copy = self
        copy.completeLine()
        return PiHoleGravityResult(
            succeeded: copy.failureCount == 0, lastLines: copy.lastLines, failures: copy.failures,
            lineCount: copy.lineCount)
    }

    private mutating func completeLine() {
        defer { pending.removeAll(keepingCapacity: true) }
        let line = Self.visibleText(String(decoding: pending, as: UTF8.self))
        guard !line.isEmpty else { return }
        lineCount += 1
        lastLines.append(line)
        if lastLines.count > Self.keptLines { lastLines.removeFirst() }
        if line.contains(Self.failureMark) {
            failureCount += 1
            if failures.count < Self.keptFailures { failures.append(line) }
        }
    }

    /// `raw` as a terminal would show it: ANSI escape sequences removed, only the text after
    /// the last carriage return, surrounding blanks trimmed.
    static func visibleText(_ raw: String) -> String {
        let shown = stripANSI(raw).split(separator: "\r", omittingEmptySubsequences: false)
            .map { String($0).trimmed() }
            .last { !$0.isEmpty }
        return shown ?? ""
    }

    /// Removes CSI sequences (`ESC [ … final`) and other two-character escapes.
    static func stripANSI(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                continue
            }
            guard let kind = scalars.next(), kind == "[" else { continue }
            // Parameters and intermediates run until a final byte in @…~.
            while let next = scalars.next(), !("@"..."~").contains(next) {}
        }
        return String(result)
    }
}
