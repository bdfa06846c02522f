#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// A matched endpoint: whether it needs a token, and what it does.
struct ReefRoute {
    var authenticated: Bool
    var handle: (inout ReefSimulatorState) -> ReefSimulatedResponse
}

/// Routes a request to its service's endpoints. As FastAPI does: an unknown path is a 404
/// whatever the token; the token is checked before the endpoint runs. Pure: state in, response out.
enum ReefEngine {
    static func handle(
        _ request: ReefSimulatedRequest, service: BellasReefSimulator.Service, state: inout ReefSimulatorState,
        now: Date
    ) -> ReefSimulatedResponse {
        let route: ReefRoute?
        switch service {
        case .core: route = ReefCoreEngine.route(request, options: state.options, now: now)
        case .temperature: route = ReefTemperatureEngine.route(request, options: state.options)
        case .outlets: route = ReefOutletEngine.route(request, options: state.options)
        }
        guard let route else { return .notFound }
        if route.authenticated, let refusal = ReefAuthEngine.refusal(request, service: service, state: state, now: now) {
            return refusal
        }
        return route.handle(&state)
    }

    /// `/health` and `/` answers, which every service has without a token.
    static func publicRoute(_ body: JSONValue) -> ReefRoute {
        ReefRoute(authenticated: false) { _ in .json(200, body) }
    }

    static func healthBody(service: String) -> JSONValue {
        ["status": "healthy", "service": .string(service), "version": "1.0.0"]
    }
}

/// The core service: login, health, host info and system usage.
enum ReefCoreEngine {
    static func route(_ request: ReefSimulatedRequest, options: BellasReefSimulator.Options, now: Date) -> ReefRoute? {
        switch (request.method, request.segments) {
        case ("GET", ["health"]):
            var body = ReefEngine.healthBody(service: "Bella's Reef API")
            if case .object(var fields) = body {
                fields["timestamp"] = .string(naiveUTC(now))
                body = .object(fields)
            }
            return ReefEngine.publicRoute(body)
        case ("GET", []):
            return ReefEngine.publicRoute([
                "service": "Bella's Reef Core Service", "version": "1.0.0",
                "endpoints": ["health": "/api/health", "auth": "/api/auth", "users": "/api/users"],
            ])
        case ("POST", ["api", "auth", "login"]):
            return ReefRoute(authenticated: false) { ReefAuthEngine.login(request, state: &$0, now: now) }
        case ("POST", ["api", "auth", "refresh"]) where options.offersRefreshToken:
            return ReefRoute(authenticated: false) { ReefAuthEngine.refresh(request, state: &$0, now: now) }
        case ("GET", ["api", "host-info"]):
            return ReefRoute(authenticated: true) { state in
                let minutes = Int(now.timeIntervalSince(state.startedAt) / 60)
                return .json(200, [
                    "kernel_version": "6.12.34+rpt-rpi-v8", "uptime": .string("up \(minutes) minutes"),
                    "os_name": "Linux", "release_name": "Debian GNU/Linux 12 (bookworm)",
                    "model": "Raspberry Pi 4 Model B Rev 1.5",
                ])
            }
        case ("GET", ["api", "system-usage"]):
            return ReefRoute(authenticated: true) { state in
                // Measured since the previous call on the real one: the first reads 0.0.
                let call = state.systemUsageCalls
                state.systemUsageCalls += 1
                let cpu = call == 0 ? 0.0 : 5.0 + Double((call * 37) % 60) / 2
                let memoryUsed = 1.0 + Double(call % 5) / 10
                return .json(200, [
                    "cpu_percent": .number(cpu), "memory_total_gb": 3.7, "memory_used_gb": .number(memoryUsed),
                    "memory_percent": .number((memoryUsed / 3.7 * 1000).rounded() / 10),
                    "disk_total_gb": 58.24, "disk_used_gb": 9.87, "disk_percent": 16.95,
                ])
            }
        default:
            return nil
        }
    }

    /// `2026-11-22T12:47:48.825884`: UTC without a zone, as Python's `datetime.utcnow().isoformat()`.
    static func naiveUTC(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let microseconds = Int(((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded(.down))
        let whole = Date(timeIntervalSince1970: seconds).formatted(.iso8601).dropLast()  // without its Z
        let fraction = String(microseconds)
        return String(whole) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// The temperature service, with or without the probe routes of build ba1bbc1.
enum ReefTemperatureEngine {
    static func route(_ request: ReefSimulatedRequest, options: BellasReefSimulator.Options) -> ReefRoute? {
        switch (request.method, request.segments) {
        case ("GET", ["health"]):
            return ReefEngine.publicRoute(ReefEngine.healthBody(service: "temperature"))
        case ("GET", []):
            return ReefEngine.publicRoute([
                "service": "Bella's Reef Temperature Service", "version": "1.0.0",
                "description": "Manages 1-wire temperature sensors", "endpoints": ["probes": "/api/probes"],
            ])
        case ("GET", ["probe", "list"]) where options.probeRoutes:
            return ReefRoute(authenticated: true) { state in .json(200, .array(state.probes.map(device))) }
        case ("GET", ["probe", "discover"]) where options.probeRoutes:
            return ReefRoute(authenticated: true) { state in
                .json(200, .array(state.probes.map { .string($0.address) }))
            }
        case ("GET", let path) where options.probeRoutes && path.count == 3 && path[0] == "probe" && path[2] == "current":
            return ReefRoute(authenticated: true) { state in
                reading(address: path[1], unit: request.queryItems["unit"], state: state)
            }
        default:
            return nil
        }
    }

    /// A bare JSON number; `unit` other than `F` answers °C, as the real service does.
    static func reading(address: String, unit: String?, state: ReefSimulatorState) -> ReefSimulatedResponse {
        guard let probe = state.probes.first(where: { $0.address == address }) else {
            return .detail(404, "Device with hardware ID \(address) not registered.")
        }
        if probe.failing { return .internalError }
        return .json(200, .number(unit == "F" ? probe.celsius * 9 / 5 + 32 : probe.celsius))
    }

    /// A `Device` of `/probe/list`.
    static func device(_ probe: SimulatedProbe) -> JSONValue {
        [
            "id": .number(Double(probe.id)), "name": .string(probe.name), "device_type": "temperature_sensor",
            "address": .string(probe.address), "role": "sensor", "parent_device_id": nil, "poll_enabled": true,
            "poll_interval": 30, "unit": "C", "min_value": 24.0, "max_value": 27.5, "config": nil,
            "is_active": true, "resolution": 12, "created_at": "2026-11-22T12:46:33.162946Z",
            "updated_at": nil, "last_polled": nil, "last_error": probe.failing ? "read failed" : nil,
        ]
    }
}
