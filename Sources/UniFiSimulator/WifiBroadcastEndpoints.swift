import JSONDocument
import PlainText

/// `…/wifi/broadcasts[/{id}]` by spec 10.5.66, read only: the list (pages of up to 200, default
/// 25, the document's filter table with its functions per property) and one broadcast. The
/// bridge never writes Wi-Fi settings, so the simulator models no write: POST, PUT and DELETE,
/// which the real console has, answer 405 here rather than pretend; so do the set functions
/// (`contains`…) that the filter evaluator does not model, with a 400.
enum WifiBroadcastEndpoints {
    static let path = "wifi/broadcasts"

    /// `getWifiBroadcastPage`'s "Filterable properties" table.
    static let filterFunctions: [String: Set<String>] = {
        let equality: Set<String> = ["eq", "ne", "in", "notIn"]
        let sets: Set<String> = ["contains", "containsAny", "containsAll", "containsExactly"]
        return [
            "type": equality, "id": equality, "enabled": ["eq", "ne"], "name": equality.union(["like"]),
            "broadcastingFrequenciesGHz": sets, "metadata.origin": equality,
            "network.type": equality.union(["isNull", "isNotNull"]), "network.networkId": equality,
            "securityConfiguration.type": equality, "broadcastingDeviceFilter.type": equality.union(["isNull", "isNotNull"]),
            "broadcastingDeviceFilter.deviceIds": sets, "broadcastingDeviceFilter.deviceTagIds": sets,
            "hotspotConfiguration.type": equality,
        ]
    }()

    static func handle(_ request: SimulatedRequest, site: String, id: String?, state: inout UniFiSimulatorState) -> SimulatedResponse {
        guard request.method == "GET" else {
            return UniFiSimulatorEngine.error(405, "api.request.method-not-allowed", "Method \(request.method) not allowed (not simulated)", request)
        }
        let broadcasts = state.wifiBroadcasts[site] ?? []
        guard let id else {
            return UniFiSimulatorEngine.page(broadcasts, filterable: Set(filterFunctions.keys), functions: filterFunctions, request)
        }
        guard let uuid = id.lowercasedUUID else {
            return UniFiSimulatorEngine.error(400, "api.request.argument-type-mismatch", "Invalid value '\(id)' of path parameter 'wifiBroadcastId'", request)
        }
        guard let broadcast = broadcasts.first(where: { $0["id"]?.stringValue == uuid }) else {
            return UniFiSimulatorEngine.error(404, "api.resource-not-found", "Wifi broadcast \(id) not found", request)
        }
        return SimulatedResponse(status: 200, body: broadcast)
    }
}
