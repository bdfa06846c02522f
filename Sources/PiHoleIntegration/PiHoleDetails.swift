import BridgeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PiHoleAPI

/// What the slower reads found on one Pi-hole: statistics, groups, seats and warnings, versions.
/// Each keeps its last value while a read fails; none of them decides whether the Pi-hole is
/// available (the blocking read does).
struct PiHoleDetails: Sendable, Equatable {
    var stats: PiHoleSummary?
    var statsReadAt: Date?
    /// `nil` until read once.
    var groups: [PiHoleGroup]?
    /// `nil` until read once.
    var clients: [PiHoleClientEntry]?
    var sessions: [PiHoleSessionInfo]?
    var maxSessions: Int?
    var messages: Int?
    var diagnosticsReadAt: Date?
    var versions: PiHoleVersions?
    var versionsReadAt: Date?

    /// `base/pihole/<id>/stats`. The counts are FTL's last 24 hours, a window that slides: they
    /// fall as well as rise, so Home Assistant must treat them as measurements, not totals.
    var statsPayload: JSONValue? {
        guard let stats else { return nil }
        return [
            "queries": .number(Double(stats.queriesTotal)),
            "blocked": .number(Double(stats.queriesBlocked)),
            "percent_blocked": .number((stats.percentBlocked * 10).rounded() / 10),
            "cached": .number(Double(stats.cached)),
            "forwarded": .number(Double(stats.forwarded)),
            "unique_domains": .number(Double(stats.uniqueDomains)),
            "clients_active": .number(Double(stats.clientsActive)),
            "clients_total": .number(Double(stats.clientsTotal)),
            "gravity_domains": .number(Double(stats.gravityDomains)),
            "gravity_last_update": stats.gravityLastUpdate.map { .string($0.iso8601) } ?? .null,
            "read_at": statsReadAt.map { .string($0.iso8601) } ?? .null,
        ]
    }

    /// `base/pihole/<id>/updates`: what Home Assistant's update entities show.
    var updatesPayload: JSONValue? {
        guard let versions else { return nil }
        func component(_ component: PiHoleVersions.Component) -> JSONValue {
            [
                "installed": component.installed.map(JSONValue.string) ?? .null,
                "latest": (component.latest ?? component.installed).map(JSONValue.string) ?? .null,
                "update_available": .bool(component.updateAvailable),
            ]
        }
        return [
            "core": component(versions.core), "web": component(versions.web), "ftl": component(versions.ftl),
            "update_available": .bool([versions.core, versions.web, versions.ftl].contains(where: \.updateAvailable)),
            "read_at": versionsReadAt.map { .string($0.iso8601) } ?? .null,
        ]
    }

    /// `base/pihole/<id>/diagnostics`: API seats (the bridge holds one) and FTL's warnings.
    var diagnosticsPayload: JSONValue? {
        guard sessions != nil || messages != nil else { return nil }
        let valid = sessions?.filter(\.valid)
        return [
            "sessions_in_use": valid.map { .number(Double($0.count)) } ?? .null,
            "sessions_max": maxSessions.map { .number(Double($0)) } ?? .null,
            "sessions": valid.map { sessions in
                .array(sessions.map { session in
                    [
                        "remote_addr": session.remoteAddress.map(JSONValue.string) ?? .null,
                        "user_agent": session.userAgent.map(JSONValue.string) ?? .null,
                        "app_password": .bool(session.isApp), "this_bridge": .bool(session.isCurrent),
                    ]
                })
            } ?? .null,
            "messages": messages.map { .number(Double($0)) } ?? .null,
            "read_at": diagnosticsReadAt.map { .string($0.iso8601) } ?? .null,
        ]
    }
}

extension PiHoleVersions.Component {
    /// Both known and different: a Pi-hole reports `latest` equal to `installed` when current.
    var updateAvailable: Bool {
        guard let installed, let latest else { return false }
        return installed != latest
    }
}
