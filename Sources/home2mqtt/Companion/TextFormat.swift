#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import PlainText

/// Small renderings shared by the status table and the command answers.
enum TextFormat {
    /// `30 s`, `5 min 10 s`, `2 h 13 min`, `3 d 4 h`.
    static func duration(seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (days, hours, minutes, rest) = (total / 86_400, total % 86_400 / 3600, total % 3600 / 60, total % 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        if minutes > 0 { return rest > 0 ? "\(minutes) min \(rest) s" : "\(minutes) min" }
        return "\(rest) s"
    }

    /// A time limit as given: `10 s`, `0.5 s`.
    static func duration(_ limit: Duration) -> String {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        return seconds >= 60 ? duration(seconds: seconds) : "\(number((seconds * 1000).rounded() / 1000)) s"
    }

    /// An ISO 8601 timestamp as a local time of day (`14:03:12`), with the date when it is
    /// not `now`'s day; `nil` when the text is not a timestamp.
    static func localTime(_ iso: String, timeZone: TimeZone, now: Date = Date()) -> String? {
        guard let date = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(iso))
            ?? (try? Date.ISO8601FormatStyle().parse(iso)) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let time = [parts.hour, parts.minute, parts.second].map { twoDigits($0 ?? 0) }.joined(separator: ":")
        guard !calendar.isDate(date, inSameDayAs: now) else { return time }
        return "\(parts.year ?? 0)-\(twoDigits(parts.month ?? 0))-\(twoDigits(parts.day ?? 0)) \(time)"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Pads columns to their widest cell, two spaces apart.
    static func table(_ rows: [[String]], indent: String = "") -> [String] {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (index, cell) in row.enumerated() {
                if index < widths.count { widths[index] = max(widths[index], cell.count) } else { widths.append(cell.count) }
            }
        }
        return rows.map { row in
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padded(to: widths[index])
            }
            return indent + cells.joined(separator: "  ")
        }
    }
}

extension TimeZone {
    /// This machine's offset from UTC now, as the C library knows it (from TZ or /etc/localtime).
    /// Without ICU's zone data, which the binary leaves out, `TimeZone.current` knows only UTC;
    /// a fixed offset is right for the times of day the companion shows, hours apart at most.
    static var local: TimeZone {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return .gmt }
        return TimeZone(secondsFromGMT: Int(parts.tm_gmtoff)) ?? .gmt
    }
}
