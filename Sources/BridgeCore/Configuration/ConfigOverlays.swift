#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import PlainText

/// The two ways a value reaches the configuration from outside the YAML file.
public enum ConfigOverlays {
    /// Prefix of environment variables that override configuration keys.
    public static let environmentPrefix = "HOME2MQTT_"

    /// `HOME2MQTT_MQTT__HOST=broker` sets `mqtt.host`; levels are separated by a double underscore,
    /// so keys keep their single underscores (`HOME2MQTT_BRIDGE__BASE_TOPIC`), and a number picks a
    /// list element (`HOME2MQTT_PIHOLE__INSTANCES__0__PASSWORD_FILE`). Names are case-insensitive.
    ///
    /// Every key lives in a section, so an override names at least two levels: a variable with the
    /// prefix and no `__` (`HOME2MQTT_VERSION`, a script's or a container's own) is not meant for
    /// the configuration and is left alone rather than refused.
    public static func applyingEnvironment(
        _ environment: [String: String], to tree: ConfigTree
    ) throws(ConfigError) -> ConfigTree {
        var result = tree
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where isOverride(name) {
            let path = name.dropFirst(environmentPrefix.count)
                .split(separator: "__", omittingEmptySubsequences: false)
                .map { $0.lowercased() }
            guard !path.contains(where: \.isEmpty) else {
                throw ConfigError(key: name, "is not a valid override name (levels are separated by '__')")
            }
            guard let updated = result.setting(.scalar(value), at: path[...]) else {
                throw ConfigError(
                    key: path.joined(separator: "."),
                    "cannot be set from \(name): the path runs through a value or a missing list element"
                )
            }
            result = updated
        }
        return result
    }

    /// Whether an environment variable is meant as a configuration override.
    static func isOverride(_ name: String) -> Bool {
        name.hasPrefix(environmentPrefix) && name.dropFirst(environmentPrefix.count).contains("__")
    }

    /// Replaces every `something_file: PATH` with `something: <the file's content>`, the way Docker
    /// secrets are mounted. The trailing newline that editors and `echo` add is dropped.
    public static func resolvingSecretFiles(
        in tree: ConfigTree, path: String = "",
        read: (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) }
    ) throws(ConfigError) -> ConfigTree {
        switch tree {
        case .scalar:
            return tree
        case .sequence(let items):
            var resolved: [ConfigTree] = []
            for (index, item) in items.enumerated() {
                resolved.append(try resolvingSecretFiles(in: item, path: "\(path)[\(index)]", read: read))
            }
            return .sequence(resolved)
        case .mapping(let members):
            var resolved: [(key: String, value: ConfigTree)] = []
            for (key, value) in members {
                let keyPath = path.isEmpty ? key : "\(path).\(key)"
                guard key.hasSuffix("_file"), key != "ca_file", key != "cert_file", key != "key_file" else {
                    resolved.append((key, try resolvingSecretFiles(in: value, path: keyPath, read: read)))
                    continue
                }
                let target = String(key.dropLast("_file".count))
                guard case .scalar(let filePath) = value else {
                    throw ConfigError(key: keyPath, "must be a file path")
                }
                if members.contains(where: { $0.key == target }) {
                    throw ConfigError(key: keyPath, "conflicts with '\(target)': give one of the two")
                }
                let content: String
                do {
                    content = try read(filePath)
                } catch {
                    throw ConfigError(key: keyPath, "cannot read '\(filePath)': \(fileErrorText(error))")
                }
                resolved.append((target, .scalar(content.trimmed(dropping: \.isNewline))))
            }
            return .mapping(resolved)
        }
    }
}
