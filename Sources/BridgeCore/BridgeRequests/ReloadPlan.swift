/// What a reload changes: the integrations whose section was added, removed or changed (the
/// others keep running untouched), and the bridge's settings that only a restart applies.
struct ReloadPlan: Equatable, Sendable {
    var added: [String] = []
    var removed: [String] = []
    var changed: [String] = []
    var unchanged: [String] = []
    /// Dotted keys (`mqtt.host`, `bridge.base_topic`) that changed and wait for a restart.
    var notApplied: [String] = []

    /// The `mqtt:` and `bridge:` keys applied at once; every other change to those sections waits.
    static let appliedBridgeKeys: Set<String> = ["bridge.log_level", "bridge.log_format"]

    /// - Parameters:
    ///   - old, new: the configuration running and the one read now.
    ///   - running, wanted: the integrations by name, in order, before and after.
    ///   - started: the configuration at start, whose broker connection and topics still hold.
    init(from old: ConfigTree, to new: ConfigTree, running: [String], wanted: [String], started: ConfigTree) {
        for name in wanted {
            if !running.contains(name) {
                added.append(name)
            } else if old.member(Self.section(of: name)) != new.member(Self.section(of: name)) {
                changed.append(name)
            } else {
                unchanged.append(name)
            }
        }
        removed = running.filter { !wanted.contains($0) }
        for section in ["mqtt", "bridge"] {
            let keys = ConfigTree.changedKeys(started.member(section), new.member(section), path: section)
            notApplied += keys.filter { !Self.appliedBridgeKeys.contains($0) }
        }
    }

    init() {}

    /// The configuration section an integration is read from: its name, but `scenes:` for `scene`.
    static func section(of integration: String) -> String {
        integration == SceneTopics.name ? SceneTopics.configurationKey : integration
    }

    var payload: JSONValue {
        [
            "added": .array(added.map(JSONValue.string)), "removed": .array(removed.map(JSONValue.string)),
            "changed": .array(changed.map(JSONValue.string)), "unchanged": .array(unchanged.map(JSONValue.string)),
            "not_applied": .array(notApplied.map(JSONValue.string)),
        ]
    }
}

extension ConfigTree {
    func member(_ key: String) -> ConfigTree? {
        guard case .mapping(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The dotted keys whose values differ, down to the last mapping: a list counts as one value.
    static func changedKeys(_ old: ConfigTree?, _ new: ConfigTree?, path: String) -> [String] {
        guard old != new else { return [] }
        guard case .mapping(let before) = old ?? .empty, case .mapping(let after) = new ?? .empty else { return [path] }
        var keys: [String] = []
        for key in before.map(\.key) + after.map(\.key) where !keys.contains(key) { keys.append(key) }
        return keys.flatMap { key in
            changedKeys(old?.member(key), new?.member(key), path: "\(path).\(key)")
        }
    }
}
