import BridgeCore

/// One thing (a group, a configured client) on one Pi-hole, under its key.
protocol PiHoleKeyedEntry: Sendable {
    var pihole: String { get }
    var key: String { get }
    /// As published in the Pi-hole's own list.
    var payload: JSONValue { get }
}

/// What the group and client registries share: things of every Pi-hole by key, where the plain
/// topics act on every Pi-hole that has a key.
protocol PiHoleKeyedRegistry {
    associatedtype Entry: PiHoleKeyedEntry
    var entries: [Entry] { get }
}

extension PiHoleKeyedRegistry {
    func entries(of pihole: String) -> [Entry] { entries.filter { $0.pihole == pihole } }

    /// For an error that names what a command could have meant.
    var keyList: String {
        let keys = Array(Set(entries.map(\.key))).sorted()
        return keys.isEmpty ? "none yet" : keys.prefix(20).joined(separator: ", ") + (keys.count > 20 ? ", …" : "")
    }

    /// `base/pihole/<id>/<things>`: each thing by key.
    func payload(of pihole: String) -> JSONValue {
        .object(Dictionary(entries(of: pihole).map { ($0.key, $0.payload) }) { first, _ in first })
    }
}
