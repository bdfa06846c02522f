#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Date {
    /// `formatted(.iso8601)`, byte for byte (`2026-11-24T20:57:06Z`: UTC, whole seconds, the
    /// fraction dropped), by arithmetic. Every state payload carries a few such times and is made
    /// again on every publish, and the format style goes through a whole calendar each time.
    /// Outside the years 1970–9999 it is the format style.
    public var iso8601: String {
        let seconds = timeIntervalSince1970.rounded(.down)
        guard seconds >= 0, seconds < Self.year10000 else { return formatted(.iso8601) }
        let total = Int(seconds)
        let (days, secondOfDay) = total.quotientAndRemainder(dividingBy: 86_400)
        let (year, month, day) = Self.civil(daysSince1970: days)
        var text = [UInt8]()
        text.reserveCapacity(20)
        Self.append(year, digits: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        Self.append(month, digits: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        Self.append(day, digits: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        Self.append(secondOfDay / 3600, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.append(secondOfDay / 60 % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        Self.append(secondOfDay % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// 10000-01-01T00:00:00Z.
    private static let year10000: Double = 253_402_300_800

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`, for days ≥ 0).
    private static func civil(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // from 0000-03-01
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func append(_ value: Int, digits: Int, to text: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
