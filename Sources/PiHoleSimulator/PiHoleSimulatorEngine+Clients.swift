import JSONDocument
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GET /api/clients[/{client}]`: every configured client, or the one identical to `{client}`
/// (an unknown one is an empty list, not a 404).
extension PiHoleSimulatorEngine {
    static func clientsEndpoint(_ request: SimulatedRequest, client: String?) -> ((inout SimulatorState) -> SimulatedResponse)? {
        guard request.method == "GET" else { return nil }
        return { state in
            let listed = state.clients.filter { client == nil || $0.client == client }
            return .json(200, ["clients": .array(listed.map(render))])
        }
    }

    static func render(_ client: SimulatedClient) -> JSONValue {
        let added = JSONValue.number(client.added.timeIntervalSince1970.rounded())
        return [
            "client": .string(client.client), "name": nil, "comment": client.comment.map(JSONValue.string) ?? nil,
            "groups": .array(client.groups.map { .number(Double($0)) }), "id": .number(Double(client.id)),
            "date_added": added, "date_modified": added,
        ]
    }
}
