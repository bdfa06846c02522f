import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// The bridge's page (`bridge.web`) wired to the running bridge.
public enum PageSetup {
    public static func routes(
        _ web: WebConfiguration, health: HealthConfiguration, activity: PageActivity, bridge: Bridge, logger: Logger
    ) -> PageRoutes {
        warnAboutExposure(web, health: health, logger: logger)
        let startedAt = Date()
        return PageRoutes(
            configuration: web, activity: activity,
            status: {
                [
                    "version": .string(Bridge.version), "started_at": .string(startedAt.iso8601), "now_ms": .number((Date().timeIntervalSince1970 * 1000).rounded()),
                    "broker_connected": .bool(bridge.isBrokerConnected), "reconnects": .number(Double(bridge.brokerReconnects)),
                ]
            },
            bridge: bridge,
            listensOnLoopback: RequestTrust.isLoopback(health.bindAddress))
    }

    /// Read-only, the page needs no login; on an address other hosts reach, that means anyone who
    /// reaches it reads everything the bridge publishes: said once, at the start.
    static func warnAboutExposure(_ web: WebConfiguration, health: HealthConfiguration, logger: Logger) {
        // Through ingress alone (no password), other addresses are refused the page (PageRoutes).
        guard !RequestTrust.isLoopback(health.bindAddress), !(web.ingress && web.password == nil) else { return }
        logger.warning(
            """
            the page (bridge.web) on \(health.bindAddress):\(health.port) shows, without a login, to anyone who reaches that \
            address: every state the bridge publishes, its configuration with secrets redacted, its last 100 commands with their \
            payloads and answers, and its warnings. \(web.controls ? "Its controls need the password." : "Its controls are off.") \
            Bind bridge.health.bind_address to 127.0.0.1, or put it behind a proxy that authenticates, if that is too much.
            """)
    }
}
