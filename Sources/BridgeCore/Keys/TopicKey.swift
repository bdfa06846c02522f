/// A readable, stable topic level for a thing known by name: `Downtime Emma` → `downtime-emma`.
public enum TopicKey {
    /// Lowercase ASCII letters and digits, runs of anything else as one `-`, none at the ends;
    /// `fallback` when nothing is left (a name in another script, say).
    public static func slug(_ name: String, fallback: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingDash, !slug.isEmpty { slug += "-" }
                slug.unicodeScalars.append(scalar)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? fallback : String(slug.prefix(64))
    }
}

/// Keys for things that come and go (rules, outlets, probes), unique across all of them.
///
/// A thing keeps its key for as long as it keeps its name. The first thing seen with a name gets
/// its plain slug; another with the same slug gets the slug and the first 8 characters of its id
/// (`downtime-emma-1a2b3c4d`). A renamed thing gets the key of its new name.
public struct TopicKeys: Sendable {
    /// id → (name it had, key it got).
    private var assigned: [String: (name: String, key: String)] = [:]

    public init() {}

    /// Assigns keys to exactly `things` (in the order the upstream listed them); forgets the rest.
    /// - Returns: id → key.
    public mutating func update(_ things: [(id: String, name: String)]) -> [String: String] {
        let ids = Set(things.map(\.id))
        assigned = assigned.filter { ids.contains($0.key) }
        for (id, name) in things where assigned[id]?.name != name { assigned[id] = nil }
        var taken = Set(assigned.values.map(\.key))
        for (id, name) in things where assigned[id] == nil {
            let slug = TopicKey.slug(name, fallback: "id-\(id.prefix(8).lowercased())")
            let key = taken.contains(slug) ? "\(slug)-\(id.prefix(8).lowercased())" : slug
            assigned[id] = (name, key)
            taken.insert(key)
        }
        return assigned.mapValues(\.key)
    }
}
