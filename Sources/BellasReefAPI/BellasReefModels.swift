import JSONDocument

/// Public value types of the Bella's Reef client, decoded by the OpenAPI documents' required
/// and nullable marks: a nullable or descriptive field never fails a decode.

/// `GET /health` of any service. The documents give no schema, so every field is optional:
/// that the request answered 200 is what says the service is up.
public struct BellasReefHealth: Sendable, Equatable, Decodable {
    public var status: String?
    public var service: String?
    public var version: String?
    /// Naive UTC (`2026-11-22T12:47:48.825884`, no `Z`), only on the core.
    public var timestamp: String?
}

/// `GET /api/host-info` (`HostInfo`, all required).
public struct BellasReefHostInfo: Sendable, Equatable, Decodable {
    public var kernelVersion: String
    /// As `uptime -p` prints it: `"up 31 minutes"`.
    public var uptime: String
    public var osName: String
    public var releaseName: String
    public var model: String

    enum CodingKeys: String, CodingKey {
        case kernelVersion = "kernel_version", uptime, osName = "os_name", releaseName = "release_name", model
    }
}

/// `GET /api/system-usage` (`SystemUsage`, all required). `cpuPercent` is measured since the
/// previous call: the first one after a controller start reads 0.0.
public struct BellasReefSystemUsage: Sendable, Equatable, Decodable {
    public var cpuPercent: Double
    public var memoryTotalGB: Double
    public var memoryUsedGB: Double
    public var memoryPercent: Double
    public var diskTotalGB: Double
    public var diskUsedGB: Double
    public var diskPercent: Double

    enum CodingKeys: String, CodingKey {
        case cpuPercent = "cpu_percent", memoryTotalGB = "memory_total_gb", memoryUsedGB = "memory_used_gb"
        case memoryPercent = "memory_percent", diskTotalGB = "disk_total_gb", diskUsedGB = "disk_used_gb"
        case diskPercent = "disk_percent"
    }
}

/// A registered temperature probe (`Device` of `GET /probe/list`).
public struct BellasReefProbe: Sendable, Equatable, Decodable {
    /// The database id.
    public var id: Int
    public var name: String
    /// The 1-wire hardware id (`000000bd3685`): what readings are asked by.
    public var address: String
    public var role: String
    public var deviceType: String
    /// The unit the probe is configured for (`"C"`), if any.
    public var unit: String?
    public var isActive: Bool?
    public var minValue: Double?
    public var maxValue: Double?
    public var lastError: String?

    enum CodingKeys: String, CodingKey {
        case id, name, address, role, deviceType = "device_type", unit, isActive = "is_active"
        case minValue = "min_value", maxValue = "max_value", lastError = "last_error"
    }
}

/// What `GET /probe/list` told.
public enum BellasReefProbeList: Sendable, Equatable {
    case probes([BellasReefProbe])
    /// 404: this build of the temperature service has no probe routes at all (the newest one).
    /// Not a fault of the service.
    case noProbeRoutes
}

/// The unit of a probe reading.
public enum BellasReefTemperatureUnit: String, Sendable, CaseIterable {
    case celsius = "C"
    case fahrenheit = "F"
}

/// A smart outlet (`SmartOutletRead`).
public struct BellasReefOutlet: Sendable, Equatable, Decodable {
    /// A UUID, lowercase as the controller writes it.
    public var id: String
    public var name: String
    public var nickname: String?
    /// `heater`, `pump_circulation`, `general`, …
    public var role: String
    public var enabled: Bool
    public var driverType: String
    public var location: String?

    enum CodingKeys: String, CodingKey {
        case id, name, nickname, role, enabled, driverType = "driver_type", location
    }
}

/// `GET …/outlets/{id}/state` and `POST …/{id}/toggle` (`SmartOutletState`).
public struct BellasReefOutletState: Sendable, Equatable {
    public var isOn: Bool
    public var powerW: Double?
    public var voltageV: Double?
    public var currentA: Double?
    public var energyKWh: Double?
    public var temperatureC: Double?
    /// Always `true` on the real controller, even for a plug that refuses connections: judge a
    /// plug by the answers to your own requests instead.
    public var isOnline: Bool

    public init(
        isOn: Bool, powerW: Double? = nil, voltageV: Double? = nil, currentA: Double? = nil,
        energyKWh: Double? = nil, temperatureC: Double? = nil, isOnline: Bool = true
    ) {
        self.isOn = isOn
        self.powerW = powerW
        self.voltageV = voltageV
        self.currentA = currentA
        self.energyKWh = energyKWh
        self.temperatureC = temperatureC
        self.isOnline = isOnline
    }
}

extension BellasReefOutletState {
    /// Read as `SmartOutletState` says: `is_on` and `is_online` booleans, each reading a number,
    /// `null` or absent; nil for anything else. By hand, for every switch and every outlet poll
    /// reads one, and a `Decodable` goes through a container per value.
    init?(json: JSONValue) {
        guard case .bool(let isOn)? = json["is_on"], case .bool(let isOnline)? = json["is_online"],
            let powerW = Self.reading(json["power_w"]), let voltageV = Self.reading(json["voltage_v"]),
            let currentA = Self.reading(json["current_a"]), let energyKWh = Self.reading(json["energy_kwh"]),
            let temperatureC = Self.reading(json["temperature_c"])
        else { return nil }
        self.init(
            isOn: isOn, powerW: powerW, voltageV: voltageV, currentA: Self.amperes(currentA, powerW: powerW, voltageV: voltageV),
            energyKWh: energyKWh, temperatureC: temperatureC, isOnline: isOnline)
    }

    /// The current in amperes. Bella's Reef's Kasa driver divides the plug's current by 1000,
    /// taking python-kasa's amperes for milliamperes (bellasreef-v2 `smartoutlets/drivers/kasa.py`;
    /// observed: 1.49e-5 A at 0.93 W). Apparent power is never below real power (V·I ≥ P), so a
    /// current that puts it under a tenth of the power is that driver's, scaled back; any other is
    /// as given, which stays right should the driver be mended.
    static func amperes(_ current: Double?, powerW: Double?, voltageV: Double?) -> Double? {
        guard let current, let powerW, let voltageV, current > 0, powerW > 0, voltageV > 0,
              voltageV * current < powerW / 10 else { return current }
        return current * 1000
    }

    /// A nullable number: `.some(nil)` for `null` or absent, nil for any other kind of value.
    private static func reading(_ value: JSONValue?) -> Double?? {
        switch value {
        case nil, .null?: .some(nil)
        case .number(let number)?: number
        default: nil
        }
    }
}
