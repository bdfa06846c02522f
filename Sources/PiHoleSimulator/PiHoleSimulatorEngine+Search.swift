import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /api/search/{domain}` as FTL v6.4.1's `api_search` answers it: exact entries equal to
/// the term (or containing it, `partial=true`), regex entries that match it (and, partial, whose
/// text contains it), and gravity rows: the domain itself or an ABP pattern for it or a parent
/// (`||example^`; `@@||example^` in allow lists), or, partial, any row containing the term.
extension PiHoleSimulatorEngine {
    /// FTL's `MAX_SEARCH_RESULTS`.
    static let maximumSearchResults = 10_000

    static func searchEndpoint(_ request: SimulatedRequest, term: String?) -> ((inout SimulatorState) -> SimulatedResponse)? {
        guard request.method == "GET" else { return nil }
        return { state in search(term ?? "", query: request.queryItems, state: state) }
    }

    static func search(_ raw: String, query: [String: String], state: SimulatorState) -> SimulatedResponse {
        guard !raw.isEmpty else {
            return .error(400, key: "bad_request", message: "Invalid request: No search term provided", hint: .string("/api/search"))
        }
        // FTL converts an IDN to punycode (and refuses one libidn2 cannot); the simulator cannot, so it refuses them all.
        guard raw.unicodeScalars.allSatisfy(\.isASCII) else {
            return .error(400, key: "bad_request", message: "Invalid request: Invalid domain name", hint: "string has forbidden bi-directional properties")
        }
        let partial = query["partial"] == "true"
        let limit = query["N"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } ?? 20
        guard limit <= maximumSearchResults else {
            return .error(
                400, key: "bad_request", message: "Invalid request: Requested too many results",
                hint: .string("Requested \(limit) number of results but hard upper limit is \(maximumSearchResults)"))
        }
        let term = raw.lowercased()
        let groups = state.groups.all

        var exact = Counted(limit: limit)
        for entry in state.domains where entry.kind == "exact" && (partial ? entry.domain.contains(term) : entry.domain == term) {
            exact.add(render(entry))
        }
        var regex = Counted(limit: limit)
        if partial {
            for entry in state.domains where entry.kind == "regex" && entry.domain.lowercased().contains(term) { regex.add(render(entry)) }
        }
        // FTL matches against the regexes it loaded: enabled ones in no group or in an enabled one.
        for list in ["allow", "deny"] {
            for entry in state.domains where entry.kind == "regex" && entry.list == list && entry.enabled
                && (entry.groups.isEmpty || entry.groups.contains { id in groups.contains { $0.id == id && $0.enabled } })
                && matches(entry.domain, term)
            {
                regex.add(render(entry))
            }
        }
        var block = Counted(limit: limit)
        var allow = Counted(limit: limit)
        let patterns = partial ? [] : abpPatterns(term)
        for list in state.lists {
            for domain in list.domains {
                let hit = partial
                    ? domain.contains(term)
                    : domain == term || patterns.contains(list.type == "allow" ? domain : "@@" + domain)
                guard hit else { continue }
                if list.type == "allow" { allow.add(render(list, domain: domain)) } else { block.add(render(list, domain: domain)) }
            }
        }
        let results: JSONValue = [
            "domains": ["exact": .number(Double(exact.count)), "regex": .number(Double(regex.count))],
            "gravity": ["allow": .number(Double(allow.count)), "block": .number(Double(block.count))],
            "total": .number(Double(exact.count + regex.count + allow.count + block.count)),
        ]
        let parameters: JSONValue = [
            "N": .number(Double(limit)), "partial": .bool(partial), "domain": .string(raw), "debug": .bool(query["debug"] == "true"),
        ]
        let search: JSONValue = [
            "domains": .array(exact.rows + regex.rows), "gravity": .array(block.rows + allow.rows),
            "results": results, "parameters": parameters,
        ]
        return .json(200, ["search": search])
    }

    /// Rows kept up to FTL's `N` of each kind, all of them counted.
    private struct Counted {
        let limit: Int
        var rows: [JSONValue] = []
        var count = 0

        mutating func add(_ row: JSONValue) {
            count += 1
            if count <= limit { rows.append(row) }
        }
    }

    /// `@@||ads.example^`, `@@||example^`: the allow-list form for the domain and each parent.
    static func abpPatterns(_ domain: String) -> Set<String> {
        let labels = domain.split(separator: ".")
        return Set(labels.indices.map { "@@||" + labels[$0...].joined(separator: ".") + "^" })
    }

    static func matches(_ pattern: String, _ domain: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return domain.contains(regex)
    }

    static func render(_ list: SimulatedList, domain: String) -> JSONValue {
        let added = JSONValue.number(list.added.timeIntervalSince1970.rounded())
        return [
            "domain": .string(domain), "address": .string(list.address), "comment": nil, "enabled": .bool(list.enabled),
            "id": .number(Double(list.id)), "type": .string(list.type), "date_added": added, "date_modified": added,
            "date_updated": added, "number": .number(Double(list.domains.count)), "invalid_domains": 0, "abp_entries": 0,
            "status": 2, "groups": .array(list.groups.map { .number(Double($0)) }),
        ]
    }
}
