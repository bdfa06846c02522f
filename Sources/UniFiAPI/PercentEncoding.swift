#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText

/// RFC 3986 percent-encoding of everything but the unreserved ASCII characters: for path
/// segments (ids come from configuration and MQTT) and the `filter` query value.
enum PercentEncoding {
    static func encode(_ text: String) -> String {
        text.percentEncoded(keeping: \.isUnreservedInURL)
    }
}
