import BellasReefAPI
import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import UpstreamHTTP

/// The `reef:` section.
struct ReefConfiguration: Sendable {
    let connection: BellasReefConnection
    /// How to trust the controller's `https://` certificate; one for its three services.
    let tls: UpstreamTLS
    let metricsInterval: Duration
    let temperatureInterval: Duration
    let outletsInterval: Duration
    /// Feed mode: `nil` when not configured.
    let feed: ReefFeedConfiguration?
    /// The tank's guard: `nil` when not configured.
    let probeGuard: ReefGuardConfiguration?
    /// The outlet interlocks: empty when none is configured.
    let interlocks: [ReefInterlockConfiguration]

    /// A plug whose state read takes longer than this is "not responding": the controller's own
    /// `is_online` is always true, so the bridge judges a plug by how its requests fare.
    static let slowPlug: Duration = .seconds(2)

    init(_ section: ConfigSection) throws(ConfigError) {
        let section = try section.allowing(Set([
            "url", "temperature_url", "outlets_url", "username", "password",
            "metrics_interval", "temperature_interval", "outlets_interval", "request_timeout", "feed", "guard", "interlocks",
        ]).union(ConfigSection.upstreamTLSKeys))
        let coreURL = try section.url("url")
        tls = try section.upstreamTLS(for: coreURL)
        connection = BellasReefConnection(
            coreURL: coreURL,
            temperatureURL: try Self.serviceURL(section, "temperature_url", core: coreURL, port: 8004),
            outletURL: try Self.serviceURL(section, "outlets_url", core: coreURL, port: 8005),
            username: try section.requiredString("username"),
            password: try section.requiredString("password"),
            requestTimeout: .seconds(try section.int("request_timeout", default: 10, in: 1...120))
        )
        metricsInterval = .seconds(try section.int("metrics_interval", default: 30, in: 1...3600))
        temperatureInterval = .seconds(try section.int("temperature_interval", default: 30, in: 1...3600))
        outletsInterval = .seconds(try section.int("outlets_interval", default: 10, in: 1...3600))
        feed = try ReefFeedConfiguration.read(section)
        probeGuard = try ReefGuardConfiguration.read(section, temperatureInterval: temperatureInterval)
        interlocks = try ReefInterlockConfiguration.read(section, temperatureInterval: temperatureInterval)
    }

    /// The services this configuration reads (the core always; the others unless turned off).
    var services: [BellasReefService] {
        BellasReefService.allCases.filter { connection.baseURL(of: $0) != nil }
    }

    /// The service's URL as given; the core's host on `port` when absent; `nil` (off) for
    /// `false` or an empty value.
    private static func serviceURL(_ section: ConfigSection, _ key: String, core: String, port: Int) throws(ConfigError) -> String? {
        guard let text = try section.string(key) else {
            guard var components = URLComponents(string: core) else { return nil }
            components.port = port
            components.path = ""
            return components.string
        }
        if text.isEmpty || text.lowercased() == "false" { return nil }
        return try section.url(key)
    }
}

/// Enables the Bella's Reef integration when the configuration has a `reef:` section.
public struct ReefIntegrationFactory: IntegrationFactory {
    public let name = ReefTopics.name

    public init() {}

    public func make(section: ConfigSection, environment: IntegrationEnvironment) throws(ConfigError) -> (any Integration)? {
        guard !section.isEmpty else { return nil }
        return ReefIntegration(configuration: try ReefConfiguration(section), environment: environment)
    }
}
