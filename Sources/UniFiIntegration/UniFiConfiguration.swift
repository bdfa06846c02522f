import BridgeCore
import PlainText
import UniFiAPI
import UpstreamHTTP

/// The `unifi:` section.
struct UniFiConfiguration: Sendable {
    struct Controller: Sendable {
        let id: String
        let connection: UniFiConnection
        /// A site's name, internal reference or id; `nil`: the controller's only site.
        let site: String?
        let selection: RuleSelection
        /// `unifi.controllers[0]`, for errors found at start.
        let keyPath: String
    }

    let controllers: [Controller]
    let pollInterval: Duration
    let vouchers: VoucherConfiguration

    init(_ section: ConfigSection) throws(ConfigError) {
        let section = try section.allowing(["controllers", "poll_interval", "request_timeout", "vouchers"])
        pollInterval = .seconds(try section.int("poll_interval", default: 30, in: 5...3600))
        vouchers = try VoucherConfiguration(section.section("vouchers"))
        let timeout = Duration.seconds(try section.int("request_timeout", default: 10, in: 1...120))
        var controllers: [Controller] = []
        for item in try section.sections("controllers") {
            let item = try item.allowing(Set(["id", "url", "api_key", "site", "rules", "name_prefix"]).union(ConfigSection.upstreamTLSKeys))
            let id = try item.requiredString("id")
            try Self.validateID(id, key: item.keyPath("id"))
            guard !controllers.contains(where: { $0.id == id }) else {
                throw ConfigError(key: item.keyPath("id"), "'\(id)' is used twice")
            }
            let url = try item.url("url")
            let connection = UniFiConnection(
                controllerURL: url, apiKey: try item.requiredString("api_key"), requestTimeout: timeout,
                tls: try item.upstreamTLS(for: url))
            controllers.append(Controller(
                id: id, connection: connection, site: try item.string("site"), selection: try Self.selection(item), keyPath: item.path))
        }
        guard !controllers.isEmpty else {
            throw ConfigError(key: section.keyPath("controllers"), "needs at least one controller (id, url, api_key)")
        }
        self.controllers = controllers
    }

    private static func selection(_ item: ConfigSection) throws(ConfigError) -> RuleSelection {
        let listed = try item.stringList("rules")
        let prefix = try item.string("name_prefix")
        switch (listed, prefix) {
        case (.some, .some):
            throw ConfigError(key: item.keyPath("name_prefix"), "cannot be combined with rules: list the rules or give a prefix")
        case (.some(let names), nil):
            guard !names.isEmpty else { throw ConfigError(key: item.keyPath("rules"), "lists no rule") }
            return .listed(Set(names.map { $0.lowercasedUUID ?? $0 }))
        case (nil, .some(let prefix)):
            guard !prefix.isEmpty else { throw ConfigError(key: item.keyPath("name_prefix"), "is empty: that would manage every rule") }
            return .namePrefix(prefix)
        case (nil, nil):
            return .namePrefix(RuleSelection.defaultPrefix)
        }
    }

    private static func validateID(_ id: String, key: String) throws(ConfigError) {
        guard id.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw ConfigError(key: key, "must use only a-z, 0-9, '-' and '_' (it becomes a topic level), got '\(id)'")
        }
    }
}

/// Enables the UniFi integration when the configuration has a `unifi:` section.
public struct UniFiIntegrationFactory: IntegrationFactory {
    public let name = UniFiTopics.name

    public init() {}

    public func make(section: ConfigSection, environment: IntegrationEnvironment) throws(ConfigError) -> (any Integration)? {
        guard !section.isEmpty else { return nil }
        return UniFiIntegration(configuration: try UniFiConfiguration(section), environment: environment)
    }
}
