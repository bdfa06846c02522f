import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/api/groups[/{name}]`: GET lists, PUT replaces (or creates) as FTL's gravity database does.
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

    /// FTL's PUT is an upsert of the whole row: a `comment` that is missing (or empty) becomes
    /// null, a missing `enabled` becomes true, a different `name` renames, and an unknown name
    /// in the URI creates the group. It answers like a GET of the URI's name, so a renamed
    /// group is not in the answer.
    static func replaceGroup(
        _ request: SimulatedRequest, name: String, state: inout SimulatorState, now: Date
    ) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body), case .object = body else {
            return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
        }
        state.groups.putCount += 1
        let comment = body["comment"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let enabled = body["enabled"]?.boolValue ?? true
        let newName = body["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? name
        let succeeded: Bool
        if state.groups.named(name) != nil {
            succeeded = state.groups.update(name, now: now) { group in
                group.name = newName
                group.comment = comment
                group.enabled = enabled
            }
        } else {
            succeeded = state.groups.add(name: name, comment: comment, enabled: enabled, now: now)
            if succeeded { state.groups.createdByPut += 1 }
        }
        let item: JSONValue = succeeded
            ? ["item": .string(name)]
            : ["item": .string(name), "error": "UNIQUE constraint failed: group.name"]
        let processed: JSONValue = [
            "success": .array(succeeded ? [item] : []), "errors": .array(succeeded ? [] : [item]),
        ]
        return listGroups(state.groups, named: name, processed: processed)
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
