/// A configuration problem, always naming the key it is about (`mqtt.port`, `pihole.instances[1].url`).
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: String
    public let problem: String

    public init(key: String, _ problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String {
        key.isEmpty ? problem : "\(key): \(problem)"
    }
}
