/// A trust setting that cannot be used as given: a fingerprint that is no SHA-256, a CA file that
/// holds no certificate. The configuration names its key beside the message.
public struct TrustSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
