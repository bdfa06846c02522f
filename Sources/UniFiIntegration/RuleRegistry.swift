import BridgeCore
import UniFiAPI

/// The managed rules of every console by key, and the keys themselves: stable while a rule
/// keeps its name, unique across consoles, and a rule's UUID works wherever its key does.
struct RuleRegistry: Sendable {
    private var keys = TopicKeys()
    private(set) var rules: [(controller: String, key: String, rule: UniFiRule)] = []

    /// Takes the rules as read (consoles in configuration order, each in the order it lists them).
    mutating func update(_ read: [(controller: String, rule: UniFiRule)]) {
        // By console and id: two consoles restored from one backup list the same rule ids.
        let assigned = keys.update(read.map { (id: Self.keyID($0.rule.id, $0.controller), name: $0.rule.name) })
        rules = read.compactMap { read in assigned[Self.keyID(read.rule.id, read.controller)].map { (read.controller, $0, read.rule) } }
    }

    /// The rule's id first: a key made unique carries its first 8 characters.
    private static func keyID(_ rule: String, _ controller: String) -> String { rule + "@" + controller
    }

    /// The rule with this key, or this id (in any letter case).
    func find(_ keyOrID: String) -> (controller: String, key: String, rule: UniFiRule)? {
        let id = keyOrID.lowercased()
        return rules.first { $0.key == keyOrID } ?? rules.first { $0.rule.id.lowercased() == id } ?? rules.first { $0.rule.name == keyOrID }
    }

    var keyList: String {
        let keys = rules.map(\.key)
        return keys.isEmpty ? "none yet" : keys.prefix(20).joined(separator: ", ") + (keys.count > 20 ? ", …" : "")
    }
}
