import Foundation

/// Reads a configuration file, then layers the environment and secret files over it.
public struct LoadedConfiguration: Sendable {
    public let tree: ConfigTree
    public let bridge: BridgeConfiguration

    public init(tree: ConfigTree) throws(ConfigError) {
        self.tree = tree
        bridge = try BridgeConfiguration(ConfigSection(tree))
    }

    public static func load(
        file: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigError) -> LoadedConfiguration {
        var tree = ConfigTree.empty
        if let file {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw ConfigError(key: "", "cannot read the configuration file '\(file)': \(error.localizedDescription)")
            }
            tree = try ConfigTree.parse(yaml: text)
        }
        tree = try ConfigOverlays.applyingEnvironment(environment, to: tree)
        tree = try ConfigOverlays.resolvingSecretFiles(in: tree)
        return try LoadedConfiguration(tree: tree)
    }

    public func section(_ key: String) throws(ConfigError) -> ConfigSection {
        try ConfigSection(tree).section(key)
    }

    /// The configuration as JSON with every secret replaced, for `bridge/info` and `check-config`.
    public var redacted: JSONValue { Self.redact(tree) }

    private static func redact(_ tree: ConfigTree) -> JSONValue {
        switch tree {
        case .scalar(let text):
            if let number = Double(text), !text.isEmpty { return .number(number) }
            switch text { case "true": return .bool(true); case "false": return .bool(false); default: return .string(text) }
        case .sequence(let items):
            return .array(items.map(redact))
        case .mapping(let members):
            var object: [String: JSONValue] = [:]
            for (key, value) in members {
                object[key] = BridgeConfiguration.secretKeys.contains(key) ? "**redacted**" : redact(value)
            }
            return .object(object)
        }
    }
}
