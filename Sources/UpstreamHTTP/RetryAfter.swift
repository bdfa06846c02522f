#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText

/// The `Retry-After` header of a 429 or 503.
public enum RetryAfter {
    /// Delta-seconds form (`"30"`, `"1.5"`); HTTP dates and nonsense are ignored.
    public static func parse(_ value: String?) -> Duration? {
        guard let value = value?.trimmed(), let seconds = Double(value), seconds >= 0,
              seconds.isFinite
        else {
            return nil
        }
        return .milliseconds(Int64(min(seconds, 86_400) * 1000))
    }
}
