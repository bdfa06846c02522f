#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import PlainText

/// `…/hotspot/vouchers[/{id}]` by spec 10.5.66: list (pages of up to 1000, default 100, and the
/// filter table with its functions per property), generate (`Hotspot voucher creation request`
/// and its limits, closed as the controller's other bodies are: 201 `{"vouchers":[…]}`), delete
/// one, and delete by a filter that is required. Pure apart from the state and the clock.
enum VoucherEndpoints {
    static let path = "hotspot/vouchers"

    /// The document's filter table (the same for GET and DELETE).
    static let filterFunctions: [String: Set<String>] = {
        let equality: Set<String> = ["eq", "ne", "in", "notIn"]
        let ordered: Set<String> = ["eq", "ne", "gt", "ge", "lt", "le"]
        let nullableOrdered = ordered.union(["isNull", "isNotNull"])
        return [
            "id": equality, "createdAt": ordered, "name": equality.union(["like"]), "code": equality,
            "authorizedGuestLimit": nullableOrdered, "authorizedGuestCount": ordered, "activatedAt": ordered, "expiresAt": ordered,
            "expired": ["eq", "ne"], "timeLimitMinutes": ordered, "dataUsageLimitMBytes": nullableOrdered,
            "rxRateLimitKbps": nullableOrdered, "txRateLimitKbps": nullableOrdered,
        ]
    }()

    static let creationShape = UpdateShape.object([
        "count": may(.bounded(1...1000)),
        "name": must(.nonEmptyString),
        "authorizedGuestLimit": may(.bounded(1...Int(Int64.max))),
        "timeLimitMinutes": must(.bounded(1...1_000_000)),
        "dataUsageLimitMBytes": may(.bounded(1...1_048_576)),
        "rxRateLimitKbps": may(.bounded(2...100_000)),
        "txRateLimitKbps": may(.bounded(2...100_000)),
    ])

    static func handle(_ request: SimulatedRequest, site: String, id: String?, state: inout UniFiSimulatorState) -> SimulatedResponse {
        if let id { return one(request, site: site, id: id, state: &state) }
        switch request.method {
        case "GET":
            return UniFiSimulatorEngine.page(
                state.vouchers[site] ?? [], filterable: Set(filterFunctions.keys), functions: filterFunctions, limits: (100, 1000), request)
        case "POST":
            return create(request, site: site, state: &state)
        case "DELETE":
            guard let text = request.query["filter"] else {
                return UniFiSimulatorEngine.error(400, "api.request.missing-parameter", "Required query parameter 'filter' is not present", request)
            }
            do throws(FilterError) {
                let filter = try UniFiSimulatorEngine.parseFilter(text, filterable: Set(filterFunctions.keys), functions: filterFunctions)
                var kept: [JSONValue] = []
                for voucher in state.vouchers[site] ?? [] where try !filter.matches(voucher) { kept.append(voucher) }
                let deleted = (state.vouchers[site]?.count ?? 0) - kept.count
                state.vouchers[site] = kept
                return SimulatedResponse(status: 200, body: ["vouchersDeleted": .number(Double(deleted))])
            } catch {
                return UniFiSimulatorEngine.error(400, "api.request.invalid-filter", error.message, request)
            }
        default:
            return UniFiSimulatorEngine.error(405, "api.request.method-not-allowed", "Method \(request.method) not allowed", request)
        }
    }

    private static func one(_ request: SimulatedRequest, site: String, id: String, state: inout UniFiSimulatorState) -> SimulatedResponse {
        guard id.lowercasedUUID != nil else {
            return UniFiSimulatorEngine.error(400, "api.request.argument-type-mismatch", "Invalid value '\(id)' of path parameter 'voucherId'", request)
        }
        guard let index = state.vouchers[site]?.firstIndex(where: { $0["id"]?.stringValue == id.lowercased() }) else {
            return UniFiSimulatorEngine.error(404, "api.resource-not-found", "Voucher \(id) not found", request)
        }
        switch request.method {
        case "GET":
            return SimulatedResponse(status: 200, body: state.vouchers[site]![index])
        case "DELETE":
            state.vouchers[site]!.remove(at: index)
            return SimulatedResponse(status: 200, body: ["vouchersDeleted": 1])
        default:
            return UniFiSimulatorEngine.error(405, "api.request.method-not-allowed", "Method \(request.method) not allowed", request)
        }
    }

    private static func create(_ request: SimulatedRequest, site: String, state: inout UniFiSimulatorState) -> SimulatedResponse {
        guard let body = JSONValue.parse(request.body), case .object = body else {
            return UniFiSimulatorEngine.error(400, "api.request.malformed-body", "Request body must be a JSON object", request)
        }
        if let rejection = creationShape.rejection(of: body) {
            return UniFiSimulatorEngine.error(400, rejection.code, rejection.message, request)
        }
        let count = body["count"]?.numberValue.map(Int.init) ?? 1
        let made = (0..<count).map { _ in
            voucher(
                code: uniqueCode(in: state.vouchers[site] ?? []), note: body["name"]!.stringValue!,
                minutes: Int(body["timeLimitMinutes"]!.numberValue!), limits: body)
        }
        state.vouchers[site, default: []].insert(contentsOf: made, at: 0)
        return SimulatedResponse(status: 201, body: ["vouchers": .array(made)])
    }

    /// A new voucher as the console answers it: no `activatedAt`/`expiresAt` until a guest uses it.
    static func voucher(code: String, note: String, minutes: Int, limits: JSONValue = [:], createdAt: Date = Date()) -> JSONValue {
        var voucher: [String: JSONValue] = [
            "id": .string(UUID().uuidString.lowercased()), "createdAt": .string(createdAt.formatted(.iso8601)), "name": .string(note),
            "code": .string(code), "authorizedGuestCount": 0, "expired": false, "timeLimitMinutes": .number(Double(minutes)),
        ]
        for key in ["authorizedGuestLimit", "dataUsageLimitMBytes", "rxRateLimitKbps", "txRateLimitKbps"] {
            if let value = limits[key] { voucher[key] = value }
        }
        return .object(voucher)
    }

    /// Ten digits, as consoles make them, and none a voucher of the site has.
    static func uniqueCode(in vouchers: [JSONValue]) -> String {
        let taken = Set(vouchers.compactMap { $0["code"]?.stringValue })
        while true {
            let code = String((0..<10).map { _ in Character(String(Int.random(in: 0...9))) })
            if !taken.contains(code) { return code }
        }
    }
}
