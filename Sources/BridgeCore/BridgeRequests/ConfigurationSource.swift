/// Where a reload reads the configuration again: the same file, loader and checks as at start,
/// and the integrations built from it (none of them started).
public struct ConfigurationSource: Sendable {
    public typealias Loaded = (configuration: LoadedConfiguration, integrations: [any Integration])
    let load: @Sendable () throws(ConfigError) -> Loaded

    public init(_ load: @escaping @Sendable () throws(ConfigError) -> Loaded) {
        self.load = load
    }
}
