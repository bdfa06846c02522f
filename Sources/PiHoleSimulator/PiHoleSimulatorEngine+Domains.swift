import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PiHoleSimulatorEngine {
    static let lists: Set<String> = ["allow", "deny"]
    static let kinds: Set<String> = ["exact", "regex"]

    /// `/api/domains[/{list}[/{kind}[/{domain}]]]`; `nil` for an unknown path or method.
    static func domainsEndpoint(
        _ request: SimulatedRequest, path: [String], now: Date
    ) -> ((inout SimulatorState) -> SimulatedResponse)? {
        let list = path.count > 0 ? path[0] : nil
        let kind = path.count > 1 ? path[1] : nil
        let item = path.count > 2 ? path[2] : nil
        if let list, !lists.contains(list) { return nil }
        if let kind, !kinds.contains(kind) { return nil }

        switch request.method {
        case "GET":
            return { state in listDomains(state: state, list: list, kind: kind, item: item) }
        case "POST":
            guard let list, let kind, item == nil else {
                return { _ in
                    .error(400, key: "uri_error", message: "Invalid request: Specify list to modify more precisely")
                }
            }
            return { state in addDomains(request, state: &state, list: list, kind: kind, now: now) }
        case "DELETE":
            guard let list, let kind else {
                return { _ in
                    .error(400, key: "uri_error", message: "Invalid request: Specify list to modify more precisely")
                }
            }
            guard let item else {
                return { _ in .error(400, key: "uri_error", message: "Invalid request: Specify item in URI") }
            }
            return { state in deleteDomain(state: &state, list: list, kind: kind, item: item) }
        default:
            return nil
        }
    }

    static func render(_ entry: SimulatedDomain) -> JSONValue {
        [
            "domain": .string(entry.domain), "unicode": .string(entry.domain),
            "type": .string(entry.list), "kind": .string(entry.kind),
            "comment": entry.comment.map { .string($0) } ?? .null,
            "groups": .array(entry.groups.map { .number(Double($0)) }), "enabled": .bool(entry.enabled), "id": .number(Double(entry.id)),
            "date_added": .number(entry.added.timeIntervalSince1970.rounded()),
            "date_modified": .number(entry.added.timeIntervalSince1970.rounded()),
        ]
    }

    static func listDomains(state: SimulatorState, list: String?, kind: String?, item: String?) -> SimulatedResponse {
        let matching = state.domains.filter { entry in
            (list == nil || entry.list == list) && (kind == nil || entry.kind == kind)
                && (item == nil || entry.domain == item!.lowercased() || entry.domain == item)
        }
        return .json(200, ["domains": .array(matching.map(render))])
    }

    static func addDomains(
        _ request: SimulatedRequest, state: inout SimulatorState, list: String, kind: String, now: Date
    ) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body), case .object = body else {
            return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
        }
        var items: [String] = []
        switch body["domain"] {
        case .string(let one)?:
            items = [one]
        case .array(let many)?:
            for case .string(let one) in many { items.append(one) }
        default:
            return .error(400, key: "body_error", message: "No \"domain\" string in body data")
        }
        let comment: String? = if case .string(let text)? = body["comment"] { text } else { nil }
        if items.contains(where: { $0.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) }) {
            return .error(
                400, key: "bad_request", message: "Spaces, newlines and tabs are not allowed in domains and URLs")
        }

        var added: [JSONValue] = []
        var success: [JSONValue] = []
        var errors: [JSONValue] = []
        for raw in items {
            // FTL lowercases exact domains; a regex keeps its case.
            let domain = kind == "exact" ? raw.lowercased() : raw
            if state.domains.contains(where: { $0.domain == domain && $0.list == list && $0.kind == kind }) {
                errors.append([
                    "item": .string(raw), "error": "UNIQUE constraint failed: domainlist.domain, domainlist.type",
                ])
                continue
            }
            let entry = SimulatedDomain(
                id: state.nextDomainID, domain: domain, list: list, kind: kind, comment: comment, added: now)
            state.nextDomainID += 1
            state.domains.append(entry)
            added.append(render(entry))
            success.append(["item": .string(raw)])
        }
        return .json(
            201, ["domains": .array(added), "processed": ["success": .array(success), "errors": .array(errors)]])
    }

    static func deleteDomain(state: inout SimulatorState, list: String, kind: String, item: String) -> SimulatedResponse {
        let domain = kind == "exact" ? item.lowercased() : item
        guard let index = state.domains.firstIndex(where: { $0.domain == domain && $0.list == list && $0.kind == kind })
        else {
            return .json(404, [:])  // only {"took":…}, no error object
        }
        state.domains.remove(at: index)
        return .noContent
    }
}
