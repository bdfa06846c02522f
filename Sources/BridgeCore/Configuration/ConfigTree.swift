/// The configuration as a plain tree, before any section reads it.
///
/// YAML, environment overrides and `*_file` secrets are all merged at this level, so every
/// section reader sees one tree and reports errors with the same key names a user wrote.
public indirect enum ConfigTree: Sendable, Equatable {
    case scalar(String)
    case mapping([(key: String, value: ConfigTree)])
    case sequence([ConfigTree])

    public static func == (lhs: ConfigTree, rhs: ConfigTree) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): return a == b
        case (.sequence(let a), .sequence(let b)): return a == b
        case (.mapping(let a), .mapping(let b)):
            return a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: return false
        }
    }

    public static let empty = ConfigTree.mapping([])

    /// Parses YAML text. An empty document is an empty mapping; a second document is an error.
    public static func parse(yaml: String) throws(ConfigError) -> ConfigTree {
        let events = YAMLEventReader(yaml)
        guard try events.next() == .streamStart, try events.next() == .documentStart else { return .empty }
        guard let tree = try ConfigTree(try events.next(), from: events, path: "", depth: 0) else { return .empty }
        guard try events.next() == .documentEnd, try events.next() == .streamEnd else {
            throw ConfigError(key: "", "the file is not valid YAML: expected a single document, found another")
        }
        guard case .mapping = tree else {
            throw ConfigError(key: "", "the top level must be a mapping of sections (mqtt:, bridge:, …)")
        }
        return tree
    }

    /// Deeper than this is refused: each level is a call, and a file of a few thousand `[` would
    /// otherwise overflow the stack. A real configuration has four or five.
    static let maximumDepth = 64

    /// The node that `event` starts, read to its end. `nil` for YAML null (`~`, `null`, or
    /// nothing after the colon): the key counts as absent.
    private init?(_ event: YAMLEvent, from events: YAMLEventReader, path: String, depth: Int) throws(ConfigError) {
        guard depth < Self.maximumDepth else {
            throw ConfigError(key: path, "nested deeper than \(Self.maximumDepth) levels")
        }
        switch event {
        case .scalar(let text, let plain):
            if plain, ["", "~", "null", "Null", "NULL"].contains(text) { return nil }
            self = .scalar(text)
        case .sequenceStart:
            var items: [ConfigTree] = []
            var index = 0
            while case let event = try events.next(), event != .sequenceEnd {
                if let item = try ConfigTree(event, from: events, path: "\(path)[\(index)]", depth: depth + 1) { items.append(item) }
                index += 1
            }
            self = .sequence(items)
        case .mappingStart:
            var members: [(key: String, value: ConfigTree)] = []
            while case let keyEvent = try events.next(), keyEvent != .mappingEnd {
                guard case .scalar(let key, _) = keyEvent else {
                    throw ConfigError(key: path, "keys must be plain strings")
                }
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                if members.contains(where: { $0.key == key }) {
                    throw ConfigError(key: childPath, "is given twice")
                }
                if let value = try ConfigTree(try events.next(), from: events, path: childPath, depth: depth + 1) {
                    members.append((key, value))
                }
            }
            self = .mapping(members)
        case .alias:
            throw ConfigError(key: path, "YAML aliases are not supported here; write the value out")
        case .streamStart, .streamEnd, .documentStart, .documentEnd, .sequenceEnd, .mappingEnd:
            throw ConfigError(key: path, "the file is not valid YAML: a value is missing")
        }
    }

    public subscript(key: String) -> ConfigTree? {
        guard case .mapping(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// Sets the value at a path of keys, creating mappings on the way. A numeric key addresses
    /// an existing list element, so `pihole.instances.0.password` reaches into a list.
    func setting(_ value: ConfigTree, at path: ArraySlice<String>) -> ConfigTree? {
        guard let head = path.first else { return value }
        let rest = path.dropFirst()
        switch self {
        case .sequence(var items):
            guard let index = Int(head), items.indices.contains(index),
                  let updated = items[index].setting(value, at: rest) else { return nil }
            items[index] = updated
            return .sequence(items)
        case .mapping(var members):
            if let position = members.firstIndex(where: { $0.key == head }) {
                guard let updated = members[position].value.setting(value, at: rest) else { return nil }
                members[position].value = updated
            } else {
                guard let created = ConfigTree.empty.setting(value, at: rest) else { return nil }
                members.append((head, created))
            }
            return .mapping(members)
        case .scalar:
            return nil
        }
    }
}
