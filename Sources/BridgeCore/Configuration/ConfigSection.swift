#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PlainText

/// Reads one mapping of the configuration, with errors that name the full key.
///
/// Every section lists the keys it knows (`allowing:`), so a typo such as `mqtt.hots` stops
/// the start instead of being silently ignored.
public struct ConfigSection: Sendable {
    public let path: String
    private let members: [(key: String, value: ConfigTree)]

    public init(_ tree: ConfigTree?, path: String = "") throws(ConfigError) {
        self.path = path
        switch tree {
        case nil: members = []
        case .mapping(let members)?: self.members = members
        default: throw ConfigError(key: path, "must be a mapping of keys")
        }
    }

    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    public func keyPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    public func contains(_ key: String) -> Bool {
        members.contains(where: { $0.key == key })
    }

    public func allowing(_ known: Set<String>) throws(ConfigError) -> ConfigSection {
        if let unknown = keys.first(where: { !known.contains($0) }) {
            throw ConfigError(key: keyPath(unknown), "is not a known key (known here: \(known.sorted().joined(separator: ", ")))")
        }
        return self
    }

    private func value(_ key: String) -> ConfigTree? {
        members.first(where: { $0.key == key })?.value
    }

    private func scalar(_ key: String) throws(ConfigError) -> String? {
        switch value(key) {
        case nil: return nil
        case .scalar(let text)?: return text
        default: throw ConfigError(key: keyPath(key), "must be a single value, not a list or mapping")
        }
    }

    public func section(_ key: String) throws(ConfigError) -> ConfigSection {
        try ConfigSection(value(key), path: keyPath(key))
    }

    public func sections(_ key: String) throws(ConfigError) -> [ConfigSection] {
        switch value(key) {
        case nil: return []
        case .sequence(let items)?:
            var result: [ConfigSection] = []
            for (index, item) in items.enumerated() {
                result.append(try ConfigSection(item, path: "\(keyPath(key))[\(index)]"))
            }
            return result
        default: throw ConfigError(key: keyPath(key), "must be a list")
        }
    }

    public func string(_ key: String) throws(ConfigError) -> String? {
        try scalar(key)
    }

    public func string(_ key: String, default fallback: String) throws(ConfigError) -> String {
        try scalar(key) ?? fallback
    }

    public func requiredString(_ key: String) throws(ConfigError) -> String {
        guard let text = try scalar(key), !text.isEmpty else {
            throw ConfigError(key: keyPath(key), "is required")
        }
        return text
    }

    public func int(_ key: String, default fallback: Int, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let text = try scalar(key) else { return fallback }
        guard let number = Int(text.trimmed()), range.contains(number) else {
            throw ConfigError(key: keyPath(key), "must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// A decimal number within `range`; `nil` when the key is absent.
    public func decimal(_ key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let text = try scalar(key) else { return nil }
        guard let number = Double(text.trimmed()), number.isFinite, range.contains(number) else {
            throw ConfigError(key: keyPath(key), "must be a number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    public func bool(_ key: String, default fallback: Bool) throws(ConfigError) -> Bool {
        guard let text = try scalar(key) else { return fallback }
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigError(key: keyPath(key), "must be true or false, got '\(text)'")
        }
    }

    public func choice<T: RawRepresentable & CaseIterable>(
        _ key: String, default fallback: T
    ) throws(ConfigError) -> T where T.RawValue == String {
        guard let text = try scalar(key) else { return fallback }
        guard let value = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigError(key: keyPath(key), "must be one of \(allowed), got '\(text)'")
        }
        return value
    }

    public func intList(_ key: String, default fallback: [Int], in range: ClosedRange<Int>) throws(ConfigError) -> [Int] {
        switch value(key) {
        case nil: return fallback
        case .sequence(let items)?:
            var numbers: [Int] = []
            for (index, item) in items.enumerated() {
                guard case .scalar(let text) = item, let number = Int(text), range.contains(number) else {
                    throw ConfigError(key: "\(keyPath(key))[\(index)]", "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                numbers.append(number)
            }
            return numbers
        default: throw ConfigError(key: keyPath(key), "must be a list of whole numbers")
        }
    }

    /// A list of non-empty strings; `nil` when the key is absent.
    public func stringList(_ key: String) throws(ConfigError) -> [String]? {
        try eachItem(of: key) { item, path throws(ConfigError) in
            guard case .scalar(let text) = item, !text.isEmpty else { throw ConfigError(key: path, "must be a non-empty text") }
            return text
        }
    }

    /// A list whose items are each a non-empty text (the short form) or a mapping (the long one,
    /// a section whose keys name the item's path: `reef.feed.outlets[1].restore_after`); `nil`
    /// when the key is absent.
    public func textsOrSections(_ key: String) throws(ConfigError) -> [TextOrSection]? {
        try eachItem(of: key) { item, path throws(ConfigError) in
            switch item {
            case .scalar(let text) where !text.isEmpty: return .text(text, path: path)
            case .mapping: return .section(try ConfigSection(item, path: path))
            default: throw ConfigError(key: path, "must be a non-empty text or a mapping")
            }
        }
    }

    /// Each item of the list at `key`, read by `read` with its path (`key[index]`, for errors);
    /// `nil` when the key is absent.
    private func eachItem<Item>(of key: String, _ read: (ConfigTree, String) throws(ConfigError) -> Item) throws(ConfigError) -> [Item]? {
        switch value(key) {
        case nil: return nil
        case .sequence(let items)?:
            var result: [Item] = []
            for (index, item) in items.enumerated() { result.append(try read(item, "\(keyPath(key))[\(index)]")) }
            return result
        default: throw ConfigError(key: keyPath(key), "must be a list")
        }
    }

    public enum TextOrSection: Sendable {
        case text(String, path: String)
        case section(ConfigSection)
    }

    /// A base URL (`http://` or `https://`, with a host), without a trailing slash.
    public func url(_ key: String) throws(ConfigError) -> String {
        let text = try requiredString(key)
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = components.host, !host.isEmpty
        else {
            throw ConfigError(key: keyPath(key), "must be an http:// or https:// URL with a host, got '\(text)'")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
