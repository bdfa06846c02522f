import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// The `pihole:` section.
struct PiHoleConfiguration: Sendable {
    struct Instance: Sendable {
        let id: String
        let connection: PiHoleConnection
    }

    let instances: [Instance]
    let pollInterval: Duration
    let defaultPause: Int
    let pausePresets: [Int]
    /// Minutes of the "pause filtering" buttons of each configured client.
    let clientPausePresets: [Int]
    /// Statistics and groups every `stats_interval`, seats and warnings every `diagnostics_interval`.
    let detailSchedule: PiHoleDetailSchedule
    /// How long a gravity run may stream before its command fails.
    let gravityTimeout: Duration

    init(_ section: ConfigSection) throws(ConfigError) {
        let section = try section.allowing([
            "instances", "poll_interval", "default_pause", "pause_presets", "client_pause_presets", "request_timeout",
            "stats_interval", "diagnostics_interval", "gravity_timeout",
        ])
        pollInterval = .seconds(try section.int("poll_interval", default: 5, in: 1...3600))
        detailSchedule = PiHoleDetailSchedule(
            stats: .seconds(try section.int("stats_interval", default: 60, in: 5...3600)),
            diagnostics: .seconds(try section.int("diagnostics_interval", default: 300, in: 5...86_400)))
        gravityTimeout = .seconds(try section.int("gravity_timeout", default: 600, in: 30...3600))
        defaultPause = try section.int("default_pause", default: 10, in: 1...PiHoleCommand.maximumPause)
        pausePresets = try section.intList("pause_presets", default: [10, 30, 300], in: 1...PiHoleCommand.maximumPause)
        clientPausePresets = try section.intList("client_pause_presets", default: [15, 60], in: 1...(30 * 24 * 60))
        let timeout = Duration.seconds(try section.int("request_timeout", default: 10, in: 1...120))

        var instances: [Instance] = []
        for item in try section.sections("instances") {
            let item = try item.allowing(Set(["id", "url", "password", "verify_certificate"]).union(ConfigSection.upstreamTLSKeys))
            let id = try item.requiredString("id")
            guard id.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ConfigError(key: item.keyPath("id"), "must use only a-z, 0-9, '-' and '_' (it becomes a topic level), got '\(id)'")
            }
            guard !PiHoleTopics.reservedIDs.contains(id) else {
                throw ConfigError(key: item.keyPath("id"), "'\(id)' is a command word; choose another id")
            }
            guard !instances.contains(where: { $0.id == id }) else {
                throw ConfigError(key: item.keyPath("id"), "'\(id)' is used twice")
            }
            let url = try item.url("url")
            let connection = PiHoleConnection(
                baseURL: url,
                password: try item.requiredString("password"),
                // `verify_certificate: false` is the older spelling of `insecure: true`.
                tls: try item.upstreamTLS(for: url, legacyVerifyKey: "verify_certificate"),
                requestTimeout: timeout
            )
            instances.append(Instance(id: id, connection: connection))
        }
        guard !instances.isEmpty else {
            throw ConfigError(key: section.keyPath("instances"), "needs at least one Pi-hole (id, url, password)")
        }
        self.instances = instances
    }
}

/// Enables the Pi-hole integration when the configuration has a `pihole:` section.
public struct PiHoleIntegrationFactory: IntegrationFactory {
    public let name = PiHoleTopics.name

    public init() {}

    public func make(section: ConfigSection, environment: IntegrationEnvironment) throws(ConfigError) -> (any Integration)? {
        guard !section.isEmpty else { return nil }
        return PiHoleIntegration(configuration: try PiHoleConfiguration(section), environment: environment)
    }
}
