/// Failures of the test helpers (broker did not start, wait timed out, ...).
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
