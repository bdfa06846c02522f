import SimulatorSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BellasReefSimulator {
    /// The three simulated services, each on its own loopback port.
    public enum Service: String, Sendable, CaseIterable {
        case core, temperature, outlets
    }

    /// How the simulator behaves; the defaults are those of the real services.
    public struct Options: Sendable {
        public var username = "bellas"
        public var password = "reefrocks"
        /// `exp` of issued tokens, from the moment of issue (real: 3600 s).
        public var tokenLifetime: Duration = .seconds(3600)
        /// Offer `POST /api/auth/refresh` and a `refresh_token` in login answers (real: no, 404).
        public var offersRefreshToken = false
        /// The temperature service of build ba1bbc1 has `/probe/...` routes; the newest has none.
        public var probeRoutes = true
        /// How long a plug that refuses connections or never answers takes to fail (real: 12–18 s).
        public var plugFailureDelay: Duration = .seconds(12)
        /// How long a login takes (real: about 250 ms of password hashing).
        public var loginDelay: Duration = .zero
        /// The simulator's time: token expiry reads it.
        public var now: @Sendable () -> Date = { Date() }

        public init() {}
    }

    /// Faults injected per service.
    public enum Fault: Sendable, Equatable {
        /// Every answer of the service is delayed by this much.
        case delay(Duration)
        /// Every request to the service is answered with a plain-text 500.
        case serverError
        /// Every connection to the service is closed mid-response.
        case dropConnections
        /// The service's listener is stopped: connects are refused. Clearing the fault listens
        /// again on the same port.
        case down
    }

    public typealias RecordedRequest = SimulatorSupport.RecordedRequest
}

/// How a simulated plug answers the controller.
public enum SimulatedPlugCondition: Sendable, Equatable {
    case online
    /// The plug refuses connections: state reads answer `is_on: false`, commands 503
    /// `outlet_connection_error`, both after ``BellasReefSimulator/Options/plugFailureDelay``.
    case refusingConnections
    /// The plug accepts and never answers: the controller gives up and answers as for a refused
    /// connection (503 `outlet_connection_error`, state reads `is_on: false`; never its 504
    /// `outlet_timeout`), after one and a half failure delays.
    case timingOut
}

/// A smart outlet as the simulator keeps it.
public struct SimulatedOutlet: Sendable, Equatable {
    public var id: String
    public var name: String
    public var role: String
    public var enabled: Bool
    public var isOn: Bool
    /// Power drawn when on; `nil` for a plug without metering (all readings null).
    public var ratedPowerW: Double?
    /// What a VeSync plug's state carries; the Kasa and Shelly drivers never send it (`stateBody`).
    public var energyKWh: Double?
    public var location: String?
    /// `kasa` (every outlet of the observed controller), `shelly` or `vesync`: what the state's
    /// readings hold follows the driver, as on the real controller.
    public var driverType: String
    public var plug: SimulatedPlugCondition = .online
    /// Added to every answer about this outlet ("slow plug").
    public var slowness: Duration = .zero

    public init(
        id: String = UUID().uuidString.lowercased(), name: String, role: String = "general", enabled: Bool = true,
        isOn: Bool = false, ratedPowerW: Double? = nil, energyKWh: Double? = nil, location: String? = nil, driverType: String = "kasa"
    ) {
        self.driverType = driverType
        self.id = id
        self.name = name
        self.role = role
        self.enabled = enabled
        self.isOn = isOn
        self.ratedPowerW = ratedPowerW
        self.energyKWh = energyKWh
        self.location = location
    }

    /// Those of the observed controller: a metering return pump, a heater without metering,
    /// and a disabled plug.
    public static let observed: [SimulatedOutlet] = [
        SimulatedOutlet(
            id: "482f89df-1943-40c6-a26c-63fb0bcefc75", name: "Offline Plug", enabled: false),
        SimulatedOutlet(
            id: "2cc8582c-b9d8-42f9-8568-78718949aeca", name: "Return Pump", role: "pump_circulation",
            isOn: true, ratedPowerW: 24.5, location: "sump"),
        SimulatedOutlet(
            id: "31993ecf-4215-4187-82c1-6ee5bda82d92", name: "Heater", role: "heater", location: "display"),
    ]
}

/// A registered 1-wire temperature probe.
public struct SimulatedProbe: Sendable, Equatable {
    /// The database id.
    public var id: Int
    public var name: String
    /// The hardware id readings are asked by.
    public var address: String
    public var celsius: Double
    /// Reading it answers a plain-text 500, as the real service does when the sensor fails.
    public var failing = false

    public init(id: Int, name: String, address: String, celsius: Double) {
        self.id = id
        self.name = name
        self.address = address
        self.celsius = celsius
    }

    /// The two probes of the observed controller.
    public static let observed: [SimulatedProbe] = [
        SimulatedProbe(id: 2, name: "Display Tank", address: "000000bd3685", celsius: 25.5625),
        SimulatedProbe(id: 3, name: "Sump", address: "000000be5efd", celsius: 25.5),
    ]
}

extension RecordedRequest {
    /// The bearer token sent, if any.
    public var bearerToken: String? {
        guard let value = header("authorization"), value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst("bearer ".count))
    }
}
