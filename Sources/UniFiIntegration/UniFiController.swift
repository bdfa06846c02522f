import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import UniFiAPI
import UpstreamHTTP

/// One configured UniFi console: its client (made on first use, with the configured TLS trust),
/// its site, and the managed rules as last read.
actor UniFiController {
    let id: String
    private let configuration: UniFiConfiguration.Controller
    let logger: Logger
    let metrics: UpstreamMetrics
    /// What its requests' deadlines are measured on: the bridge's clock.
    private let clock: any BridgeClock
    private var connected: (http: UpstreamHTTPClient, api: UniFiClient, site: UniFiSite)?
    /// Set after a TLS failure of the client in `connected`, which may be a changed certificate:
    /// the next request probes and checks the pin again rather than failing the same way forever.
    private var reconnectNeeded = false
    /// Set by `shutdown`: a connection still being made (the actor is re-entered at each await)
    /// must not be kept afterwards, or its HTTP client is never shut down.
    private var isShutDown = false
    var status = ControllerStatus()

    struct ControllerStatus: Sendable, Equatable {
        var available = false
        var error: String?
        var applicationVersion: String?
        var site: String?
        var rules: [UniFiRule] = []
        /// When each rule was last read from the console, by id.
        var readAt: [String: Date] = [:]
        var everRead = false
        /// The active vouchers as last read, without their codes; `nil` before the first read.
        var vouchers: VoucherList?
        /// Why the last voucher read failed, to log a change once.
        var voucherError: String?
    }

    init(configuration: UniFiConfiguration.Controller, logger: Logger, metrics: UpstreamMetrics, clock: any BridgeClock) {
        id = configuration.id
        self.configuration = configuration
        self.metrics = metrics
        self.clock = clock
        var logger = logger
        logger[metadataKey: "controller"] = "\(configuration.id)"
        self.logger = logger
        if configuration.connection.tls == .insecure {
            logger.warning("certificate verification is off for this UniFi console (insecure: true): anyone on the path could pose as it")
        }
    }

    /// Reads the managed rules of both kinds, every page.
    @discardableResult
    func refresh() async -> ControllerStatus {
        do {
            let (api, site) = try await connection()
            var rules: [UniFiRule] = []
            for kind in UniFiRuleKind.allCases {
                rules += try await metrics.measure { try await api.rules(kind, site: site.id, filter: self.configuration.selection.filter) }
                    .filter(configuration.selection.selects)
            }
            let now = Date()
            status.rules = rules
            status.readAt = Dictionary(rules.map { ($0.id, now) }) { _, later in later }
            status.everRead = true
            markAvailable()
        } catch {
            markUnavailable(error)
        }
        if status.available { await refreshVouchers() }
        return status
    }

    /// GET → only `enabled` changed → PUT the whole rule (its answer is the rule), through the client.
    func setEnabled(_ kind: UniFiRuleKind, id: String, _ enabled: Bool) async throws -> UniFiRule {
        do {
            let (api, site) = try await connection()
            let updated = try await metrics.measure { try await api.setEnabled(kind: kind, site: site.id, id: id, enabled: enabled) }
            if let index = status.rules.firstIndex(where: { $0.id == updated.id }) {
                status.rules[index] = updated
                status.readAt[updated.id] = Date()
            }
            markAvailable()
            return updated
        } catch let error as UniFiError where [.badRequest, .notFound, .readOnly].contains(error.code) {
            markAvailable()
            throw error
        } catch {
            markUnavailable(error)
            throw error
        }
    }

    /// Reads one rule as it is now.
    func current(_ kind: UniFiRuleKind, id: String) async throws -> UniFiRule {
        let (api, site) = try await connection()
        return try await metrics.measure { try await api.rule(kind, site: site.id, id: id) }
    }

    /// Connects once: a console with several sites and none named (or a name that matches none)
    /// is a configuration error. Any other failure is left to polling.
    func checkSite() async throws(ConfigError) {
        do {
            _ = try await connection()
        } catch let error as UniFiError where error.code == .siteSelection {
            throw ConfigError(key: "\(configuration.keyPath).site", error.message)
        } catch {
            logger.warning("UniFi console not reachable at start; the bridge keeps trying", metadata: ["error": "\(error)"])
        }
    }

    func shutdown() async {
        isShutDown = true
        let http = connected?.http
        connected = nil
        try? await http?.shutdown()
    }

    func connection() async throws -> (UniFiClient, UniFiSite) {
        if reconnectNeeded, let stale = connected {
            connected = nil
            reconnectNeeded = false
            try? await stale.http.shutdown()
        }
        if let connected { return (connected.api, connected.site) }
        guard !isShutDown else { throw CancellationError() }
        let http = try await UniFiClient.makeHTTPClient(for: configuration.connection, clock: clock)
        let api = UniFiClient(connection: configuration.connection, httpClient: http, logger: logger)
        let info: UniFiInfo, site: UniFiSite
        do {
            info = try await metrics.measure { try await api.info() }
            site = try await metrics.measure { try await api.resolveSite(self.configuration.site) }
        } catch {
            try? await http.shutdown()
            throw error
        }
        if isShutDown {
            try? await http.shutdown()
            throw CancellationError()
        }
        // Another caller may have connected while this one waited: keep one client.
        if let connected {
            try? await http.shutdown()
            return (connected.api, connected.site)
        }
        status.applicationVersion = info.applicationVersion
        status.site = site.name
        connected = (http, api, site)
        logger.info("UniFi console connected", metadata: ["version": "\(info.applicationVersion)", "site": "\(site)"])
        return (api, site)
    }

    private func markAvailable() {
        if !status.available { logger.info("UniFi console is reachable") }
        metrics.recordAvailability(true)
        status.available = true
        status.error = nil
    }

    private func markUnavailable(_ error: any Error) {
        // A request cut short because the bridge is stopping says nothing of the console.
        guard !(error is CancellationError) else { return }
        let isTLS = (error as? UniFiError)?.code == .tls
        // Log the change, not every failed poll. A certificate problem is logged again when its
        // words change: the handshake refused by a pin says little, the next probe names both fingerprints.
        if status.available || status.error == nil || (isTLS && status.error != "\(error)") {
            logger.warning("UniFi console is unavailable", metadata: ["error": "\(error)"])
        }
        metrics.recordAvailability(false)
        status.available = false
        status.error = "\(error)"
        // Only a client in use can have met the failure. One that failed to be made (a probe
        // refused while the console restarts) leaves none behind, and the flag would then throw
        // away the next good one (a second connection, and any request still on the first cut short).
        if isTLS, connected != nil { reconnectNeeded = true }
    }
}
