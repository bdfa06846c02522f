/// The three Bella's Reef services the client talks to; each has its own port and base URL.
public enum BellasReefService: String, Sendable, CaseIterable {
    /// Authentication, host info and system usage (port 8000).
    case core
    /// 1-wire temperature probes (port 8004).
    case temperature
    /// Smart outlets (port 8005).
    case outlets
}

/// How to reach a Bella's Reef controller.
public struct BellasReefConnection: Sendable {
    /// The core service, e.g. `"http://192.168.1.20:8000"`. Logins go here.
    public var coreURL: String
    /// The temperature service; `nil` turns it off.
    public var temperatureURL: String?
    /// The smart-outlet service; `nil` turns it off.
    public var outletURL: String?
    public var username: String
    /// Kept in memory only; never logged, redacted in `description`.
    public var password: String
    /// Deadline for one HTTP request (connect + response).
    public var requestTimeout: Duration

    public init(
        coreURL: String,
        temperatureURL: String?,
        outletURL: String?,
        username: String,
        password: String,
        requestTimeout: Duration = .seconds(10)
    ) {
        self.coreURL = coreURL
        self.temperatureURL = temperatureURL
        self.outletURL = outletURL
        self.username = username
        self.password = password
        self.requestTimeout = requestTimeout
    }

    /// The base URL of `service` without trailing slashes, or `nil` when the service is turned off.
    public func baseURL(of service: BellasReefService) -> String? {
        let url: String?
        switch service {
        case .core: url = coreURL
        case .temperature: url = temperatureURL
        case .outlets: url = outletURL
        }
        guard var url else { return nil }
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

extension BellasReefConnection: CustomStringConvertible {
    /// Describes the connection without the password.
    public var description: String {
        "BellasReefConnection(core: \(coreURL), temperature: \(temperatureURL ?? "off"), "
            + "outlets: \(outletURL ?? "off"), username: \(username), password: <redacted>)"
    }
}
