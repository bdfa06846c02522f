#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        var tree = try ConfigOverlays.applyingEnvironment(environment, to: readFile(file))
        tree = try ConfigOverlays.resolvingSecretFiles(in: tree)
        return try LoadedConfiguration(tree: tree)
    }

    /// Only the bridge's own sections (`mqtt:`, `bridge:`), for a client that talks to the bridge
    /// over MQTT: file, then environment, then `overrides` (dotted keys such as `mqtt.host`, from
    /// command-line flags). Every other section is dropped before secret files are read, so the
    /// client never needs, nor reads, an integration's credentials.
    public static func loadBridgeSections(
        file: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        overrides: [(key: String, value: String)] = []
    ) throws(ConfigError) -> LoadedConfiguration {
        var tree = try ConfigOverlays.applyingEnvironment(environment, to: readFile(file))
        for (key, value) in overrides {
            guard let updated = tree.setting(.scalar(value), at: key.split(separator: ".").map(String.init)[...]) else {
                throw ConfigError(key: key, "cannot be set: the path runs through a value")
            }
            tree = updated
        }
        if case .mapping(let members) = tree {
            tree = .mapping(members.filter { ["mqtt", "bridge"].contains($0.key) })
        }
        tree = try ConfigOverlays.resolvingSecretFiles(in: tree)
        return try LoadedConfiguration(tree: tree)
    }

    private static func readFile(_ file: String?) throws(ConfigError) -> ConfigTree {
        guard let file else { return .empty }
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ConfigError(key: "", "cannot read the configuration file '\(file)': \(fileErrorText(error))")
        }
        return try ConfigTree.parse(yaml: text)
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
