import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The retained state as a person reads it: the bridge, then a section per integration.
///
/// Generic on purpose: an integration's section comes from its topics alone. Its root's JSON
/// object gives the header, its availability topic the header's first word; every JSON object
/// below the root is a row of a table (one table per parent topic), with its own `…/availability`
/// as a column; other values are listed by topic. An object whose every value is itself an object
/// or a list (an index, a summary by service) is left out: the rows show the same things. A lone
/// row with many fields is printed as a list of fields instead of a table too wide to read.
/// `columns` only orders and names well-known fields.
struct StatusTable {
    let base: String
    /// Payloads by full topic.
    let state: [String: JSONValue]
    var timeZone: TimeZone = .local
    var now = Date()

    /// Fields shown in this order and with these headings; any other field follows, by name.
    static let columns: [(key: String, heading: String)] = [
        ("name", "NAME"), ("state", "STATE"), ("status", "STATUS"), ("value", "VALUE"), ("unit", "UNIT"), ("power_w", "POWER W"),
        ("blocking", "BLOCKING"), ("timer", "PAUSE LEFT"), ("resumes_at", "RESUMES AT"),
        ("last_known", "LAST KNOWN"), ("last_seen", "LAST SEEN"),
        ("host", "HOST"), ("version", "VERSION"), ("error", "ERROR"),
    ]
    /// Fields the table already shows another way: the row's name, the availability column.
    static let hidden: Set<String> = ["id", "key", "available"]
    /// More fields than this in a lone row: printed as a list.
    static let widestLoneRow = 8
    /// Top-level topics that are not integrations.
    static let notIntegrations: Set<String> = ["bridge", "replies"]

    var text: String {
        (bridgeLines + integrationNames.flatMap { [""] + integrationLines($0) }).joined(separator: "\n")
    }

    // MARK: - The bridge

    private func value(_ relative: String) -> JSONValue? { state["\(base)/\(relative)"] }

    private var bridgeLines: [String] {
        let topics = BridgeTopics(base: base)
        let bridgeState = state[topics.state]?.stringValue ?? "unknown (no \(topics.state))"
        var rows = [["bridge", bridgeState]]
        if let version = state[topics.info]?["version"]?.stringValue { rows.append(["version", version]) }
        if let uptime = state[topics.health]?["uptime_seconds"]?.numberValue {
            rows.append(["uptime", TextFormat.duration(seconds: uptime)])
        }
        if case .array(let names)? = state[topics.info]?["integrations"] {
            rows.append(["integrations", names.compactMap(\.stringValue).joined(separator: ", ")])
        }
        if bridgeState == BridgeTopics.offline {
            rows.append(["note", "the bridge is offline: below is the last state it published"])
        }
        return TextFormat.table(rows)
    }

    /// The integrations `bridge/info` names, in its order, then any other with state.
    private var integrationNames: [String] {
        var names: [String] = []
        if case .array(let listed)? = state[BridgeTopics(base: base).info]?["integrations"] {
            names = listed.compactMap(\.stringValue)
        }
        let prefix = base + "/"
        let others = Set(state.keys.filter { $0.hasPrefix(prefix) }.compactMap {
            $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        })
        return names + others.subtracting(names).subtracting(Self.notIntegrations).sorted()
    }

    // MARK: - An integration

    private func integrationLines(_ name: String) -> [String] {
        let root = "\(base)/\(name)"
        // Every topic below the root, by its path below the root ("" is the root itself).
        let entries = Dictionary(uniqueKeysWithValues: state.filter { $0.key == root || $0.key.hasPrefix(root + "/") }.map {
            (String($0.key.dropFirst(root.count).drop(while: { $0 == "/" })), $0.value)
        })
        let indexes = Set(entries.filter { !$0.key.isEmpty && Self.isIndex($0.value) }.keys)
        let rowPaths = entries.filter { !$0.key.isEmpty && $0.value.isObject && !indexes.contains($0.key) }.keys
        let availability = { (path: String) in entries[path.isEmpty ? "availability" : "\(path)/availability"]?.stringValue }

        var header = [name, availability("") ?? (entries.isEmpty ? "no state yet" : "")]
        if case .object(let fields)? = entries[""] {
            header.append(contentsOf: fields.keys.sorted(by: Self.columnOrder).compactMap { key -> String? in
                guard let cell = cell(key, fields[key]!) else { return nil }
                return "\(heading(key).lowercased()) \(cell)"
            })
        }
        var lines = [header.filter { !$0.isEmpty }.joined(separator: "  ")]

        let groups = Dictionary(grouping: rowPaths, by: { Self.parent($0) })
        for group in groups.keys.sorted() {
            if !group.isEmpty { lines.append("  \(group)") }
            lines.append(contentsOf: rowTable(groups[group]!.sorted(), entries: entries, availability: availability))
        }

        let covered = Set(rowPaths.flatMap { [$0, "\($0)/availability"] } + ["", "availability"]).union(indexes)
        let loose = entries.keys.filter { !covered.contains($0) }.sorted()
        lines.append(contentsOf: TextFormat.table(loose.map { [$0, cell($0, entries[$0]!) ?? "-"] }, indent: "  "))
        return lines
    }

    private func rowTable(_ paths: [String], entries: [String: JSONValue], availability: (String) -> String?) -> [String] {
        let objects = paths.map { entries[$0]?.objectValue ?? [:] }
        let keys = Set(objects.flatMap(\.keys)).subtracting(Self.hidden)
            .filter { key in objects.contains { cell(key, $0[key] ?? .null) != nil } }
            .sorted(by: Self.columnOrder)
        let showAvailability = paths.contains { availability($0) != nil }
        if paths.count == 1, keys.count > Self.widestLoneRow {
            let fields = (showAvailability ? [["availability", availability(paths[0]) ?? "-"]] : [])
                + keys.map { [heading($0).lowercased(), cell($0, objects[0][$0] ?? .null) ?? "-"] }
            return ["  \(paths[0])"] + TextFormat.table(fields, indent: "    ")
        }
        var rows = [["ID"] + (showAvailability ? ["AVAILABILITY"] : []) + keys.map(heading)]
        for (path, object) in zip(paths, objects) {
            let id = String(path.split(separator: "/").last ?? "")
            rows.append([id] + (showAvailability ? [availability(path) ?? "-"] : []) + keys.map { cell($0, object[$0] ?? .null) ?? "-" })
        }
        return TextFormat.table(rows, indent: "  ")
    }

    // MARK: - Cells

    private func heading(_ key: String) -> String {
        Self.columns.first(where: { $0.key == key })?.heading ?? key.replacing("_", with: " ").uppercased()
    }

    /// A field's value as text; `nil` for nothing to show (null, nested objects and lists).
    private func cell(_ key: String, _ value: JSONValue) -> String? {
        switch value {
        case .null, .object, .array: return nil
        case .bool(let flag): return flag ? "yes" : "no"
        case .number(let number):
            return key == "timer" || key.hasSuffix("_seconds") ? TextFormat.duration(seconds: number) : TextFormat.number(number)
        case .string(let text):
            if key.hasSuffix("_at") || key.hasSuffix("_seen"), let time = TextFormat.localTime(text, timeZone: timeZone, now: now) { return time }
            return text
        }
    }

    private static func columnOrder(_ a: String, _ b: String) -> Bool {
        let rank = { (key: String) in columns.firstIndex(where: { $0.key == key }) ?? columns.count }
        return (rank(a), a) < (rank(b), b)
    }

    /// An index or summary: an object whose values are all objects or lists.
    private static func isIndex(_ value: JSONValue) -> Bool {
        guard let members = value.objectValue else { return false }
        return members.values.allSatisfy { if case .object = $0 { return true }; if case .array = $0 { return true }; return false }
    }

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}

extension JSONValue {
    var isObject: Bool { objectValue != nil }
}
