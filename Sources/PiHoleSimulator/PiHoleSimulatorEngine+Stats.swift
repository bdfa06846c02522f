import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/api/stats/summary` and `/api/queries`, computed from the simulator's query log.
extension PiHoleSimulatorEngine {
    static func summary(state: SimulatorState, now: Date) -> SimulatedResponse {
        let recent = state.queryLog.recent(now: now)
        let blocked = recent.filter(\.isBlocked).count
        let percent: Double = recent.isEmpty ? 0 : Double(blocked) * 100 / Double(recent.count)
        let forwarded = recent.filter { $0.status == "FORWARDED" }.count
        let cached = recent.filter { SimulatedQuery.cachedStatuses.contains($0.status) }.count
        let queries: JSONValue = [
            "total": count(recent.count),
            "blocked": count(blocked),
            "percent_blocked": .number(percent),
            "unique_domains": count(Set(recent.map(\.domain)).count),
            "forwarded": count(forwarded),
            "cached": count(cached),
            "frequency": .number(Double(recent.count) / SimulatedQueryLog.window),
            "types": counted(recent, by: \.type),
            "status": counted(recent, by: \.status),
        ]
        let clients: JSONValue = [
            "active": count(Set(recent.map(\.clientIP)).count),
            "total": count(Set(state.queryLog.entries.map(\.query.clientIP)).count),
        ]
        let lastUpdate = state.gravity.lastUpdate.map { $0.timeIntervalSince1970.rounded(.down) } ?? 0
        let gravity: JSONValue = [
            "domains_being_blocked": count(state.gravity.domains), "last_update": .number(lastUpdate),
        ]
        return .json(200, ["queries": queries, "clients": clients, "gravity": gravity])
    }

    static func count(_ number: Int) -> JSONValue { .number(Double(number)) }

    static func counted(_ queries: [SimulatedQuery], by key: (SimulatedQuery) -> String) -> JSONValue {
        .object(Dictionary(grouping: queries, by: key).mapValues { count($0.count) })
    }

    /// `GET /api/queries`: filters `from`, `until` (inclusive, Unix seconds), `client_ip`,
    /// `domain` (both with `*` wildcards), `upstream` (`blocklist`, `permitted`, `cache` or an
    /// upstream with wildcards); pages with `cursor` (newest id shown), `start` and `length`
    /// (default 100); newest first.
    static func queries(_ request: SimulatedRequest, state: SimulatorState) -> SimulatedResponse {
        let parameters = request.queryItems
        var numbers: [String: Double] = [:]
        for name in ["from", "until", "length", "start", "cursor", "draw"] {
            guard let text = parameters[name] else { continue }
            guard let value = Double(text) else {
                return .error(400, key: "bad_request", message: "Invalid request: \(name) is not a number")
            }
            numbers[name] = value
        }
        let newestID = state.queryLog.entries.last?.id ?? 0
        let shownUpTo = numbers["cursor"].map { Int($0) } ?? newestID
        let matching = state.queryLog.entries.reversed().filter { entry in
            let query = entry.query
            let time = query.time.timeIntervalSince1970
            return entry.id <= shownUpTo
                && numbers["from"].map { time >= $0 } ?? true
                && numbers["until"].map { time <= $0 } ?? true
                && matches(parameters["client_ip"], query.clientIP)
                && matches(parameters["domain"], query.domain)
                && matchesUpstream(parameters["upstream"], query)
        }
        let page = matching.dropFirst(max(0, Int(numbers["start"] ?? 0))).prefix(max(0, Int(numbers["length"] ?? 100)))
        return .json(
            200,
            [
                "queries": .array(page.map(render)),
                "cursor": .number(Double(shownUpTo)),
                "recordsTotal": .number(Double(state.queryLog.entries.count)),
                "recordsFiltered": .number(Double(matching.count)),
                "draw": .number(numbers["draw"] ?? 0),
            ])
    }

    static func matchesUpstream(_ filter: String?, _ query: SimulatedQuery) -> Bool {
        switch filter {
        case nil: true
        case "blocklist": query.isBlocked
        case "permitted": !query.isBlocked
        case "cache": SimulatedQuery.cachedStatuses.contains(query.status)
        case let name?: query.upstream.map { matches(name, $0) } ?? false
        }
    }

    /// Whether `text` matches `pattern`, where `*` stands for any run of characters.
    static func matches(_ pattern: String?, _ text: String) -> Bool {
        guard let pattern else { return true }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return pattern == text }
        guard text.hasPrefix(parts[0]), text.dropFirst(parts[0].count).hasSuffix(parts[parts.count - 1]) else {
            return false
        }
        var rest = Substring(text.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count))
        for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
            guard let found = rest.firstRange(of: middle) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    static func render(_ entry: SimulatedQueryLog.Entry) -> JSONValue {
        let query = entry.query
        return [
            "id": .number(Double(entry.id)),
            "time": .number(query.time.timeIntervalSince1970),
            "type": .string(query.type),
            "domain": .string(query.domain),
            "cname": nil,
            "status": .string(query.status),
            "client": ["ip": .string(query.clientIP), "name": query.clientName.map(JSONValue.string) ?? nil],
            "dnssec": "UNKNOWN",
            "reply": ["type": "IP", "time": .number(query.isBlocked ? 0.1 : 12.3)],
            "list_id": nil,
            "upstream": query.upstream.map(JSONValue.string) ?? nil,
            "ede": ["code": 0, "text": nil],
        ]
    }
}
