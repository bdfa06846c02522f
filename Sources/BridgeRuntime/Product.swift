/// The bridge's name and version as it introduces itself.
public enum Product {
    public static let version = "0.1.0"
    /// Sent with every upstream request: a Pi-hole lists each API session with its user agent, so
    /// the bridge's sessions (and its lines in any server's log) can be told apart from others'.
    public static let userAgent = "home2mqtt/\(version)"
}
