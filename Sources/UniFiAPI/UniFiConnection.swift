import UpstreamHTTP

/// Where a UniFi Network application is and how to talk to it.
public struct UniFiConnection: Sendable, CustomStringConvertible {
    /// The console, e.g. `https://192.168.1.1`.
    public let controllerURL: String
    /// Sent in `X-API-KEY` only; never logged nor shown by `description`.
    public let apiKey: String
    public let requestTimeout: Duration
    public let tls: UpstreamTLS

    public init(controllerURL: String, apiKey: String, requestTimeout: Duration = .seconds(10), tls: UpstreamTLS = .system) {
        self.controllerURL = controllerURL
        self.apiKey = apiKey
        self.requestTimeout = requestTimeout
        self.tls = tls
    }

    /// The Integration API's root behind the console's proxy; request paths start with `/v1/`.
    public var apiBaseURL: String {
        var base = controllerURL
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/proxy/network/integration"
    }

    public var description: String {
        "UniFiConnection(\(controllerURL), apiKey: **redacted**, timeout: \(requestTimeout), tls: \(tls))"
    }
}
