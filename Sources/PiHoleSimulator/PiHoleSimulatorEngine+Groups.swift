import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/api/groups[/{name}]` as FTL 6 answers it (`src/api/list.c`, `api_list_write`, and
/// `src/database/gravity-db.c`, `gravityDB_addToTable`): GET lists, POST creates, PUT changes.
extension PiHoleSimulatorEngine {
    /// `nil` for an unknown method.
    static func groupsEndpoint(
        _ request: SimulatedRequest, name: String?, now: Date
    ) -> ((inout SimulatorState) -> SimulatedResponse)? {
        switch request.method {
        case "GET":
            return { state in listGroups(state.groups, named: name, processed: nil) }
        case "PUT":
            guard let name else {
                return { _ in .error(400, key: "uri_error", message: "Invalid request: Specify item in URI") }
            }
            return { state in replaceGroup(request, name: name, state: &state, now: now) }
        case "POST" where name == nil:
            return { state in addGroups(request, state: &state, now: now) }
        default:
            return nil
        }
    }

    /// An unknown name is an empty list, not a 404.
    static func listGroups(_ groups: SimulatedGroups, named name: String?, processed: JSONValue?) -> SimulatedResponse {
        let listed = groups.all.filter { name == nil || $0.name == name }
        var body: JSONValue = ["groups": .array(listed.map(render))]
        if let processed { body = body.setting("processed", processed) }
        return .json(200, body)
    }

    /// FTL's PUT writes the whole row: a `comment` that is missing (or empty) becomes null, a
    /// missing `enabled` becomes true. With a `name` in the body it is `UPDATE … WHERE name =
    /// :item`: a different name renames, and an unknown URI name changes nothing yet answers 200
    /// with the item under `processed.success` (seen on FTL 6.4.1). Without one it is an insert
    /// or replace, which creates an unknown name. It answers like a GET of the URI's name, so a
    /// renamed or absent group is not in the answer.
    static func replaceGroup(
        _ request: SimulatedRequest, name: String, state: inout SimulatorState, now: Date
    ) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body), case .object = body else {
            return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
        }
        state.groups.putCount += 1
        let comment = body["comment"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let enabled = body["enabled"]?.boolValue ?? true
        let bodyName = body["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let succeeded: Bool
        if state.groups.named(name) != nil {
            succeeded = state.groups.update(name, now: now) { group in
                group.name = bodyName ?? name
                group.comment = comment
                group.enabled = enabled
            }
        } else if bodyName != nil {
            succeeded = true
        } else {
            succeeded = state.groups.add(name: name, comment: comment, enabled: enabled, now: now)
        }
        let item: JSONValue = succeeded
            ? ["item": .string(name)]
            : ["item": .string(name), "error": "UNIQUE constraint failed: group.name"]
        let processed: JSONValue = [
            "success": .array(succeeded ? [item] : []), "errors": .array(succeeded ? [] : [item]),
        ]
        return listGroups(state.groups, named: name, processed: processed)
    }

    /// FTL's POST adds the groups its body's `name` gives (a string, or a list of them) with its
    /// `comment` and `enabled`: 201, each name under `processed.success`, or under
    /// `processed.errors` when it exists (`UNIQUE constraint failed`, still 201). It answers like
    /// a GET of the last name.
    static func addGroups(_ request: SimulatedRequest, state: inout SimulatorState, now: Date) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body), case .object = body else {
            return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
        }
        let names: [String]? = switch body["name"] {
        case .string(let name) where !name.isEmpty: [name]
        case .array(let items) where !items.isEmpty: items.map { $0.stringValue ?? "" }
        default: nil
        }
        guard let names else {
            return .error(400, key: "bad_request", message: #"Invalid request: No valid "name" in payload (must be either string or array)"#)
        }
        let comment = body["comment"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let enabled = body["enabled"]?.boolValue ?? true
        var success: [JSONValue] = [], errors: [JSONValue] = []
        for name in names {
            if state.groups.add(name: name, comment: comment, enabled: enabled, now: now) {
                state.groups.createdByPost += 1
                success.append(["item": .string(name)])
            } else {
                errors.append(["item": .string(name), "error": "UNIQUE constraint failed: group.name"])
            }
        }
        var answer = listGroups(state.groups, named: names.last, processed: ["errors": .array(errors), "success": .array(success)])
        answer.status = 201
        return answer
    }

    static func render(_ group: SimulatedGroup) -> JSONValue {
        [
            "name": .string(group.name), "comment": group.comment.map(JSONValue.string) ?? nil,
            "enabled": .bool(group.enabled), "id": .number(Double(group.id)),
            "date_added": .number(group.dateAdded.timeIntervalSince1970.rounded(.down)),
            "date_modified": .number(group.dateModified.timeIntervalSince1970.rounded(.down)),
        ]
    }
}
