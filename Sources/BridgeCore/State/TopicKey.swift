import Foundation

/// Topic levels made from names people give things on an upstream ("Return Pump" →
/// `return-pump`), stable while the name stays, and unique within one list.
public enum TopicKey {
    /// Lowercase ASCII letters and digits, every other run of characters one `-`, none at the
    /// ends; accents dropped (`Küche` → `kuche`). `fallback` when nothing is left.
    public static func slug(_ name: String, fallback: String) -> String {
        let folded = name.folding(options: .diacriticInsensitive, locale: nil)
        var slug = ""
        var pendingDash = false
        for scalar in folded.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingDash, !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? fallback : slug
    }

    /// A key for each thing: its name's slug. Things whose slugs collide are ordered by `id`; the
    /// first keeps the slug, each other gets `-<the last 8 letters or digits of its id>` — so a
    /// key depends on the things' names and ids only, never on the order the upstream lists them.
    /// - Returns: id → key.
    public static func assign(_ things: [(id: String, name: String)], fallback: String) -> [String: String] {
        var keys: [String: String] = [:]
        let bySlug = Dictionary(grouping: things) { slug($0.name, fallback: fallback) }
        let taken = Set(bySlug.keys)
        for (slug, group) in bySlug {
            for (index, thing) in group.sorted(by: { $0.id < $1.id }).enumerated() {
                guard index > 0 else {
                    keys[thing.id] = slug
                    continue
                }
                var key = "\(slug)-\(String(Self.slug(thing.id, fallback: "x").filter { $0 != "-" }.suffix(8)))"
                while taken.contains(key) || keys.values.contains(key) { key += "-\(index)" }
                keys[thing.id] = key
            }
        }
        return keys
    }
}
