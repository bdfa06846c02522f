import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/api/clients[/{client}]` as FTL's gravity database answers it (clients.yaml): GET lists (an
/// unknown client is an empty list), PUT replaces comment and groups (a missing comment becomes
/// null, missing groups `[0]`; an unknown client is created), POST adds, DELETE removes.
extension PiHoleSimulatorEngine {
    /// `nil` for an unknown method.
    static func clientsEndpoint(
        _ request: SimulatedRequest, client: String?, now: Date
    ) -> ((inout SimulatorState) -> SimulatedResponse)? {
        switch (request.method, client) {
        case ("GET", _):
            return { state in listClients(state, named: client, processed: nil) }
        case ("PUT", let client?):
            return { state in replaceClient(request, client: client, state: &state, now: now) }
        case ("POST", nil):
            return { state in addClients(request, state: &state, now: now) }
        case ("DELETE", let client?):
            return { state in state.clients.remove(client) ? .noContent : .json(404, [:]) }
        case ("PUT", nil), ("DELETE", nil):
            return { _ in .error(400, key: "uri_error", message: "Invalid request: Specify item in URI") }
        default:
            return nil
        }
    }

    static func listClients(_ state: SimulatorState, named client: String?, processed: JSONValue?) -> SimulatedResponse {
        let listed = state.clients.all.filter { client == nil || $0.client == client }
        var body: JSONValue = ["clients": .array(listed.map(render))]
        if let processed { body = body.setting("processed", processed) }
        return .json(200, body)
    }

    private static func replaceClient(_ request: SimulatedRequest, client: String, state: inout SimulatorState, now: Date) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body), case .object = body else {
            return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
        }
        guard let groups = groupIDs(body["groups"], state: state) else { return invalidGroups }
        state.clients.writes += 1
        let comment = body["comment"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        state.clients.replace(client, comment: comment, groups: groups, now: now)
        return listClients(state, named: client, processed: ["success": [["item": .string(client)]], "errors": []])
    }

    private static func addClients(_ request: SimulatedRequest, state: inout SimulatorState, now: Date) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body), case .object = body else {
            return .error(400, key: "bad_request", message: "Invalid request body data (no valid JSON)")
        }
        let names: [String]
        switch body["client"] {
        case .string(let one)?: names = [one]
        case .array(let many)? where many.allSatisfy({ $0.stringValue != nil }): names = many.compactMap(\.stringValue)
        default: return .error(400, key: "bad_request", message: "No \"client\" string or array of strings in body data")
        }
        guard let groups = groupIDs(body["groups"], state: state) else { return invalidGroups }
        state.clients.writes += 1
        let comment = body["comment"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        var success: [JSONValue] = [], errors: [JSONValue] = []
        for name in names {
            if state.clients.add(name, comment: comment, groups: groups, now: now) {
                success.append(["item": .string(name)])
            } else {
                errors.append(["item": .string(name), "error": "UNIQUE constraint failed: client.ip"])
            }
        }
        var response = listClients(state, named: names.count == 1 ? names[0] : nil, processed: ["success": .array(success), "errors": .array(errors)])
        response.status = 201
        return response
    }

    /// The group ids a body names: every one an existing group's; absent means the Default group.
    private static func groupIDs(_ value: JSONValue?, state: SimulatorState) -> [Int]? {
        guard let value else { return [0] }
        guard case .array(let items) = value else { return nil }
        var ids: [Int] = []
        for item in items {
            guard let number = item.numberValue, let id = Int(exactly: number), state.groups.all.contains(where: { $0.id == id }) else {
                return nil
            }
            ids.append(id)
        }
        return ids
    }

    private static let invalidGroups = SimulatedResponse.error(
        400, key: "bad_request", message: "Invalid request: \"groups\" must be an array of existing group IDs")

    /// `name` is the host name FTL resolved for the client; one it has none for is `""`, not
    /// null (FTL 6.4.1, a client configured by address: ../shared/specs, issue 38).
    static func render(_ client: SimulatedClient) -> JSONValue {
        [
            "client": .string(client.client), "comment": client.comment.map(JSONValue.string) ?? nil,
            "groups": .array(client.groups.map { .number(Double($0)) }), "id": .number(Double(client.id)),
            "date_added": .number(client.dateAdded.timeIntervalSince1970.rounded(.down)),
            "date_modified": .number(client.dateModified.timeIntervalSince1970.rounded(.down)), "name": "",
        ]
    }
}
