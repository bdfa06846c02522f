import Foundation

/// RFC 3986 percent-encoding of everything but the unreserved ASCII characters: for path
/// segments (ids come from configuration and MQTT) and the `filter` query value.
enum PercentEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
