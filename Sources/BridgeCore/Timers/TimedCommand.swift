#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How long a timed command lasts: `"for": SECONDS` or `"until": "ISO-8601"` in its JSON.
public enum TimedCommand {
    /// The longest a timed command may last: past this it is a mistake, not a plan.
    public static let maximum: Duration = .seconds(30 * 86_400)

    /// - Returns: `nil` when the object has neither key (the change is permanent).
    public static func duration(in object: [String: JSONValue], now: Date = Date()) throws(CommandError) -> Duration? {
        switch (object["for"], object["until"]) {
        case (nil, nil):
            return nil
        case (.some, .some):
            throw CommandError("give 'for' or 'until', not both")
        case (.some(let value), nil):
            guard case .number(let seconds) = value, seconds.isFinite, seconds == seconds.rounded() else {
                throw CommandError("'for' must be a whole number of seconds, got \(value.encodedString())")
            }
            return try checked(seconds)
        case (nil, .some(let value)):
            guard case .string(let text) = value, let date = try? Date(text, strategy: .iso8601) else {
                throw CommandError("'until' must be an ISO 8601 time such as 2026-11-23T18:30:00Z, got \(value.encodedString())")
            }
            return try checked(date.timeIntervalSince(now).rounded(.up))
        }
    }

    private static func checked(_ seconds: Double) throws(CommandError) -> Duration {
        guard seconds >= 1 else { throw CommandError("the time must be at least 1 second from now") }
        guard seconds <= Double(maximum.components.seconds) else {
            throw CommandError("the time must be at most \(maximum.components.seconds / 86_400) days from now")
        }
        return .seconds(Int64(seconds))
    }
}
