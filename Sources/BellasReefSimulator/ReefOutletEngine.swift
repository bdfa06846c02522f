#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument
import PlainText

/// The smart-outlet service. Pure: state in, response out; plug delays are returned, not slept.
enum ReefOutletEngine {
    static let prefix = ["api", "smartoutlets", "outlets"]

    static func route(_ request: ReefSimulatedRequest, options: BellasReefSimulator.Options) -> ReefRoute? {
        let path = request.segments
        switch (request.method, path) {
        case ("GET", ["health"]):
            return ReefEngine.publicRoute(ReefEngine.healthBody(service: "smartoutlets"))
        case ("GET", prefix) where !request.trailingSlash:
            return ReefRoute(authenticated: false) { state in
                redirectToSlash(request, baseURL: state.baseURLs[.outlets] ?? "")
            }
        case ("GET", prefix):
            let includeDisabled = request.queryItems["include_disabled"] == "true"
            return ReefRoute(authenticated: true) { state in
                .json(200, .array(state.outlets.filter { includeDisabled || $0.enabled }.map(outletBody)))
            }
        case (_, _) where path.count == 5 && Array(path.prefix(3)) == prefix:
            guard let action = Action(rawValue: path[4]) else { return nil }
            // Starlette answers a path with another method 405 and one with a trailing slash 307
            // to the path without it, both before any dependency (the token) runs
            // (starlette/routing.py); smartoutlets/api.py has only POST for the commands.
            guard request.method == action.method else {
                return ReefRoute(authenticated: false) { _ in
                    ReefSimulatedResponse(status: 405, body: .json(["detail": "Method Not Allowed"]), headers: ["Allow": action.method])
                }
            }
            if request.trailingSlash {
                return ReefRoute(authenticated: false) { state in
                    let location = (state.baseURLs[.outlets] ?? "") + "/" + path.joined(separator: "/")
                    return ReefSimulatedResponse(status: 307, body: .text(""), headers: ["Location": location])
                }
            }
            return ReefRoute(authenticated: true) { state in
                perform(action, id: path[3], state: &state, failureDelay: options.plugFailureDelay)
            }
        default:
            return nil
        }
    }

    enum Action: String {
        case state, turnOn = "turn_on", turnOff = "turn_off", toggle

        /// `GET …/state`; `POST` for the commands (smartoutlets/api.py).
        var method: String { self == .state ? "GET" : "POST" }
    }

    static func perform(
        _ action: Action, id: String, state: inout ReefSimulatorState, failureDelay: Duration
    ) -> ReefSimulatedResponse {
        guard let uuid = postgresUUID(id) else { return leakedSQL(id) }
        guard let index = state.outletIndex(uuid) else {
            return .coded(404, "outlet_not_found", "Outlet with ID \(id) not found")
        }
        guard state.outlets[index].enabled else {
            return .coded(409, "outlet_disabled", "The operation cannot be completed because the outlet is disabled.")
        }
        var response = plugAnswer(action, outlet: &state.outlets[index])
        switch state.outlets[index].plug {
        case .online: break
        // Refused: a switch fails after about 12 s, a toggle and a state read after about 3 (the
        // specs' README, measured against the real services); `failureDelay` is the switch's.
        case .refusingConnections: response.delay += action == .turnOn || action == .turnOff ? failureDelay : failureDelay / 4
        // Three tries of 5 s where a refused connection takes about 12 s (README of the specs).
        case .timingOut: response.delay += failureDelay * 3 / 2
        }
        response.delay += state.outlets[index].slowness
        return response
    }

    /// The id as PostgreSQL's UUID column takes it through asyncpg (`pgproto/uuid.pyx`,
    /// `pg_uuid_bytes_from_str`): 32 to 36 characters, hyphens skipped wherever they are, 32 hex
    /// digits; in the canonical lowercase form, or nil.
    static func postgresUUID(_ id: String) -> String? {
        guard (32...36).contains(id.utf8.count) else { return nil }
        let digits = id.utf8.filter { $0 != UInt8(ascii: "-") }
        guard digits.count == 32, digits.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }) else { return nil }
        var canonical = String(decoding: digits, as: UTF8.self).lowercased()
        for offset in [8, 13, 18, 23] { canonical.insert("-", at: canonical.index(canonical.startIndex, offsetBy: offset)) }
        return canonical
    }

    /// What the plug makes of the action (without the delays).
    static func plugAnswer(_ action: Action, outlet: inout SimulatedOutlet) -> ReefSimulatedResponse {
        switch (outlet.plug, action) {
        // The driver retries and gives up (smartoutlets/drivers/base.py), and the manager wraps
        // every such failure as a connection error (smartoutlets/manager.py): a plug that never
        // answers reads as one that refuses, only later. The service's 504 handler is never reached.
        case (.refusingConnections, .state), (.timingOut, .state):
            // The real controller reports an unreachable plug as off, and online.
            var unreachable = outlet
            unreachable.isOn = false
            unreachable.ratedPowerW = nil
            unreachable.energyKWh = nil
            return .json(200, stateBody(unreachable))
        case (.refusingConnections, _), (.timingOut, _):
            return .coded(503, "outlet_connection_error", "Failed to connect to outlet \(outlet.id): [Errno 111] Connection refused")
        case (.online, .state):
            return .json(200, stateBody(outlet))
        case (.online, .turnOn), (.online, .turnOff):
            outlet.isOn = action == .turnOn
            let verb = action == .turnOn ? "on" : "off"
            return .json(200, ["message": .string("Successfully turned \(verb) outlet \(outlet.id)")])
        case (.online, .toggle):
            outlet.isOn.toggle()
            return .json(200, stateBody(outlet))
        }
    }

    /// The real controller passes a non-UUID id to PostgreSQL and answers with the error.
    static func leakedSQL(_ id: String) -> ReefSimulatedResponse {
        .coded(
            503, "outlet_connection_error",
            "(sqlalchemy.dialects.postgresql.asyncpg.Error) <class 'asyncpg.exceptions.DataError'>: "
                + "invalid input for query argument $1: '\(id)' (invalid UUID '\(id)')\n"
                + "[SQL: SELECT smart_outlets.id, smart_outlets.name FROM smart_outlets "
                + "WHERE smart_outlets.id = $1::UUID]")
    }

    /// 307 to the same path with the slash, absolute, query kept.
    static func redirectToSlash(_ request: ReefSimulatedRequest, baseURL: String) -> ReefSimulatedResponse {
        let location = baseURL + "/" + prefix.joined(separator: "/") + "/" + (request.rawQuery.map { "?" + $0 } ?? "")
        return ReefSimulatedResponse(status: 307, body: .text(""), headers: ["Location": location])
    }

    static let volts = 231.067823

    /// `SmartOutletState` as each driver's `_get_state_implementation` fills it (bellasreef-v2
    /// `smartoutlets/drivers/`): a plug without metering has every reading null; Kasa sends power,
    /// voltage and its current divided by 1000 (`kasa.py` takes python-kasa's amperes for
    /// milliamperes), never energy; Shelly power alone; VeSync all four.
    static func stateBody(_ outlet: SimulatedOutlet) -> JSONValue {
        let power = outlet.ratedPowerW.map { outlet.isOn ? $0 : 0 }
        let amperes = power.map { $0 / volts }
        var voltage = power == nil ? nil : volts, current = amperes, energy = outlet.energyKWh
        switch outlet.driverType {
        case "kasa": (current, energy) = (amperes.map { $0 / 1000 }, nil)
        case "shelly": (voltage, current, energy) = (nil, nil, nil)
        default: break
        }
        return [
            "is_on": .bool(outlet.isOn),
            "power_w": power.map(JSONValue.number) ?? nil,
            "voltage_v": voltage.map(JSONValue.number) ?? nil,
            "current_a": current.map(JSONValue.number) ?? nil,
            "energy_kwh": energy.map(JSONValue.number) ?? nil,
            "temperature_c": nil,
            "is_online": true,
        ]
    }

    /// `SmartOutletRead`.
    static func outletBody(_ outlet: SimulatedOutlet) -> JSONValue {
        [
            "id": .string(outlet.id), "driver_type": .string(outlet.driverType), "driver_device_id": .string("sim-\(outlet.id.prefix(8))"),
            "name": .string(outlet.name), "nickname": nil, "ip_address": "127.0.0.2", "auth_info": [:],
            "location": outlet.location.map(JSONValue.string) ?? nil, "role": .string(outlet.role),
            "enabled": .bool(outlet.enabled), "poller_enabled": true, "scheduler_enabled": true, "is_online": nil,
            "created_at": "2026-11-22T12:46:10.223473", "updated_at": "2026-11-22T12:46:10.223479",
        ]
    }
}
