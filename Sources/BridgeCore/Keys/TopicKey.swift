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

    /// Assigns keys to exactly `things` (in the order the upstream listed them; an id listed twice
    /// counts once, as first listed); forgets the rest.
    /// - Returns: id → key, no two ids with the same key.
    public mutating func update(_ things: [(id: String, name: String)]) -> [String: String] {
        var seen = Set<String>()
        let things = things.filter { seen.insert($0.id).inserted }
        assigned = assigned.filter { seen.contains($0.key) }
        for (id, name) in things where assigned[id]?.name != name { assigned[id] = nil }
        var taken = Set(assigned.values.map(\.key))
        for (id, name) in things where assigned[id] == nil {
            let key = Self.firstFree(slug: TopicKey.slug(name, fallback: "id-\(id.prefix(8).lowercased())"), id: id, taken: taken)
            assigned[id] = (name, key)
            taken.insert(key)
        }
        return assigned.mapValues(\.key)
    }

    /// The slug, else the slug and the id's first 8 characters, else (ids alike in those, as 1-wire
    /// addresses are) the slug and a number.
    private static func firstFree(slug: String, id: String, taken: Set<String>) -> String {
        for candidate in [slug, "\(slug)-\(id.prefix(8).lowercased())"] where !taken.contains(candidate) { return candidate }
        var number = 2
        while taken.contains("\(slug)-\(number)") { number += 1 }
        return "\(slug)-\(number)"
    }
}
