#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import PlainText

/// A request as the engine sees it: path segments after `/proxy/network/integration/v1`.
struct SimulatedRequest: Sendable {
    let method: String
    let path: String
    let segments: [String]
    var query: [String: String]
    let apiKey: String?
    let body: Data
}

/// An answer: status, JSON body, and `Retry-After` seconds for a 429.
struct SimulatedResponse: Sendable {
    var status: Int
    var body: JSONValue
    var retryAfterSeconds: Int?
}

/// The Integration API's behaviour over ``UniFiSimulatorState``. Pure apart from the state it
/// is handed: no I/O, no clock but `Date()` for error timestamps.
enum UniFiSimulatorEngine {
    static let prefix = ["proxy", "network", "integration", "v1"]

    static func handle(_ request: SimulatedRequest, state: inout UniFiSimulatorState) -> SimulatedResponse {
        guard request.apiKey == state.apiKey else { return proxyUnauthorized }
        guard request.segments.starts(with: prefix) else { return error(404, "api.resource-not-found", "Not found", request) }
        let route = Array(request.segments.dropFirst(prefix.count))
        switch (request.method, route.count, route.first) {
        case ("GET", 1, "info"?):
            return SimulatedResponse(status: 200, body: ["applicationVersion": .string(state.applicationVersion)])
        case ("GET", 1, "sites"?):
            return page(state.sites, filterable: ["id", "internalReference", "name"], request)
        default:
            break
        }
        guard route.count >= 3, route[0] == "sites" else { return error(404, "api.resource-not-found", "Not found", request) }
        let site = route[1]
        guard site.lowercasedUUID != nil else {
            return error(400, "api.request.argument-type-mismatch", "Invalid value '\(site)' of path parameter 'siteId'", request)
        }
        guard let collections = state.rules[site.lowercased()] else {
            return error(404, "api.resource-not-found", "Site \(site) not found", request)
        }
        let rest = route.dropFirst(2).joined(separator: "/")
        // The document has the collections (…/hotspot/vouchers, …/wifi/broadcasts) and one item of
        // each (…/{id}), nothing deeper: a longer path is no such route, never the collection.
        for (path, handle) in [(VoucherEndpoints.path, VoucherEndpoints.handle), (WifiBroadcastEndpoints.path, WifiBroadcastEndpoints.handle)]
        where rest == path || (rest.hasPrefix(path + "/") && route.count == 5) {
            return handle(request, site.lowercased(), route.count == 5 ? route[4] : nil, &state)
        }
        for collection in UniFiSimulator.Collection.allCases {
            if rest == collection.rawValue, request.method == "GET" {
                return page(collections[collection] ?? [], filterable: collection.filterableProperties, request)
            }
            if rest.hasPrefix(collection.rawValue + "/") {
                let id = String(rest.dropFirst(collection.rawValue.count + 1))
                return item(collection, site: site, id: id, request, state: &state)
            }
        }
        return error(404, "api.resource-not-found", "Not found", request)
    }

    private static func item(
        _ collection: UniFiSimulator.Collection, site: String, id: String, _ request: SimulatedRequest,
        state: inout UniFiSimulatorState
    ) -> SimulatedResponse {
        guard id.lowercasedUUID != nil else {
            return error(400, "api.request.argument-type-mismatch", "Invalid value '\(id)' of path parameter", request)
        }
        guard let current = state.withRule(collection, site: site, id: id, { $0 }) else {
            return error(404, "api.resource-not-found", "Entity \(id) not found", request)
        }
        switch request.method {
        case "GET":
            return SimulatedResponse(status: 200, body: current)
        case "PUT":
            switch RuleUpdate.apply(request.body, to: current, collection: collection) {
            case .success(let updated):
                _ = state.withRule(collection, site: site, id: id) { $0 = updated }
                return SimulatedResponse(status: 200, body: updated)
            case .failure(let rejection):
                return error(400, rejection.code, rejection.message, request)
            }
        case "PATCH" where collection == .firewallPolicies:
            switch RuleUpdate.patch(request.body, to: current) {
            case .success(let updated):
                _ = state.withRule(collection, site: site, id: id) { $0 = updated }
                return SimulatedResponse(status: 200, body: updated)
            case .failure(let rejection):
                return error(400, rejection.code, rejection.message, request)
            }
        default:
            return error(405, "api.request.method-not-allowed", "Method \(request.method) not allowed", request)
        }
    }

    /// `offset` ≥ 0, `limit` 0–200 (default 25; vouchers 0–1000, default 100), `filter`;
    /// `{"offset","limit","count","totalCount","data"}`. `functions`: what each property allows, where the document says.
    static func page(
        _ items: [JSONValue], filterable: Set<String>, functions: [String: Set<String>] = [:], limits: (default: Int, max: Int) = (25, 200),
        _ request: SimulatedRequest
    ) -> SimulatedResponse {
        let offset = request.query["offset"].map { Int($0) } ?? 0
        let limit = request.query["limit"].map { Int($0) } ?? limits.default
        guard let offset, offset >= 0 else {
            return error(400, "api.request.argument-out-of-range", "Query parameter 'offset' must be 0 or more", request)
        }
        guard let limit, (0...limits.max).contains(limit) else {
            return error(400, "api.request.argument-out-of-range", "Query parameter 'limit' must be between 0 and \(limits.max)", request)
        }
        var selected: [JSONValue] = []
        do throws(FilterError) {
            let filter = try request.query["filter"].map { text throws(FilterError) in try parseFilter(text, filterable: filterable, functions: functions) }
            for item in items {
                if try filter?.matches(item) ?? true { selected.append(item) }
            }
        } catch {
            return Self.error(400, "api.request.invalid-filter", error.message, request)
        }
        let data = Array(selected.dropFirst(offset).prefix(limit))
        return SimulatedResponse(status: 200, body: [
            "offset": .number(Double(offset)), "limit": .number(Double(limit)), "count": .number(Double(data.count)),
            "totalCount": .number(Double(selected.count)), "data": .array(data),
        ])
    }

    /// A filter the endpoint can apply: only `filterable` properties, each with the functions
    /// `functions` allows it (every function where it says nothing).
    static func parseFilter(_ text: String, filterable: Set<String>, functions: [String: Set<String>]) throws(FilterError) -> FilterExpression {
        let filter = try FilterParser.parse(text)
        if let refused = filter.properties.subtracting(filterable).sorted().first {
            throw FilterError(message: "Property '\(refused)' cannot be used in a filter")
        }
        if let refused = filter.calls.first(where: { call in functions[call.property].map { !$0.contains(call.function) } ?? false }) {
            throw FilterError(message: "Function '\(refused.function)' cannot be used with property '\(refused.property)'")
        }
        return filter
    }

    static let proxyUnauthorized = SimulatedResponse(status: 401, body: ["error": ["code": 401, "message": "Unauthorized"]])

    /// The Integration API's error shape.
    static func error(_ status: Int, _ code: String, _ message: String, _ request: SimulatedRequest) -> SimulatedResponse {
        SimulatedResponse(status: status, body: [
            "statusCode": .number(Double(status)),
            "statusName": .string(statusName(status)),
            "code": .string(code),
            "message": .string(message),
            "timestamp": .string(Date().formatted(.iso8601)),
            "requestPath": .string(request.path.replacing("/proxy/network", with: "")),
            "requestId": .string(UUID().uuidString.lowercased()),
        ])
    }

    private static func statusName(_ status: Int) -> String {
        switch status {
        case 400: "BAD_REQUEST"
        case 404: "NOT_FOUND"
        case 405: "METHOD_NOT_ALLOWED"
        case 429: "TOO_MANY_REQUESTS"
        default: "INTERNAL_SERVER_ERROR"
        }
    }
}
