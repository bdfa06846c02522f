import BridgeCore

/// Statistics sensors, update entities, admin buttons and diagnostic sensors of each Pi-hole.
extension PiHoleDiscovery {
    /// A statistic: its JSON field, name, unit and icon.
    private struct Statistic {
        let field: String, suffix: String, name: String, unit: String?, icon: String
    }

    /// FTL counts over the last 24 hours, a window that slides: each count falls as old queries
    /// leave it, so `measurement` (a `total_increasing` sensor would read every fall as a reset).
    private static let statistics = [
        Statistic(field: "queries", suffix: "queries", name: "Queries (24 h)", unit: "queries", icon: "mdi:dns"),
        Statistic(field: "blocked", suffix: "blocked", name: "Queries blocked (24 h)", unit: "queries", icon: "mdi:hand-back-right"),
        Statistic(field: "percent_blocked", suffix: "percent_blocked", name: "Percent blocked (24 h)", unit: "%", icon: "mdi:percent"),
        Statistic(field: "cached", suffix: "cached", name: "Queries cached (24 h)", unit: "queries", icon: "mdi:cached"),
        Statistic(field: "forwarded", suffix: "forwarded", name: "Queries forwarded (24 h)", unit: "queries", icon: "mdi:call-split"),
        Statistic(field: "unique_domains", suffix: "unique_domains", name: "Unique domains (24 h)", unit: "domains", icon: "mdi:domain"),
        Statistic(field: "clients_active", suffix: "clients_active", name: "Active clients", unit: "clients", icon: "mdi:devices"),
        Statistic(field: "clients_total", suffix: "clients_total", name: "Clients seen", unit: "clients", icon: "mdi:account-multiple"),
        Statistic(field: "gravity_domains", suffix: "gravity_domains", name: "Domains on block lists", unit: "domains", icon: "mdi:format-list-bulleted"),
    ]

    func detailEntities(_ id: String) -> [DiscoveryEntity] {
        let stats = JSONValue.string(topics.topic(PiHoleTopics.stats(id)))
        var entities = Self.statistics.map { statistic in
            entity(id, "sensor", statistic.suffix, statistic.name, options: Self.statisticOptions(statistic, stats))
        }
        entities.append(entity(id, "sensor", "gravity_last_update", "Block lists updated", options: [
            "state_topic": stats, "device_class": "timestamp",
            "value_template": ValueTemplate.field("gravity_last_update"),
        ]))
        let updates = JSONValue.string(topics.topic(PiHoleTopics.updates(id)))
        for (component, title) in [("core", "Pi-hole Core"), ("web", "Pi-hole Web interface"), ("ftl", "Pi-hole FTL")] {
            entities.append(entity(id, "update", "update_\(component)", title, options: [
                "state_topic": updates, "title": .string(title), "entity_category": "diagnostic",
                "value_template": Self.updateTemplate(component),
            ]))
        }
        for (action, name, icon) in [
            (PiHoleAction.gravity, "Update block lists", "mdi:playlist-refresh"), (.restartDNS, "Restart DNS", "mdi:restart"),
            (.flushLogs, "Flush query log", "mdi:delete-sweep"),
        ] {
            entities.append(entity(id, "button", "action_\(action.rawValue)", name, options: [
                "command_topic": .string(topics.topic(PiHoleTopics.action(id, action))), "payload_press": "",
                "entity_category": "config", "icon": .string(icon),
            ]))
        }
        let diagnostics = JSONValue.string(topics.topic(PiHoleTopics.diagnostics(id)))
        entities.append(entity(id, "sensor", "api_sessions", "API seats in use", options: [
            "state_topic": diagnostics, "state_class": "measurement", "unit_of_measurement": "sessions", "entity_category": "diagnostic",
            "value_template": ValueTemplate.field("sessions_in_use"), "icon": "mdi:account-key",
            "json_attributes_topic": diagnostics,
            "json_attributes_template": ValueTemplate.attributes("{'maximum': value_json.get('sessions_max'), 'sessions': value_json.get('sessions')}"),
        ]))
        entities.append(entity(id, "sensor", "messages", "FTL warnings", options: [
            "state_topic": diagnostics, "state_class": "measurement", "entity_category": "diagnostic",
            "value_template": ValueTemplate.field("messages"), "icon": "mdi:alert-circle-outline",
        ]))
        return entities
    }

    /// Queries and blocked queries summed over every Pi-hole, on the "Pi-holes" device.
    var aggregateStatEntities: [DiscoveryEntity] {
        let stats = JSONValue.string(topics.topic(PiHoleTopics.aggregateStats))
        return Self.statistics.filter { ["queries", "blocked", "percent_blocked"].contains($0.field) }.map { statistic in
            DiscoveryEntity(
                component: "sensor", objectID: "pihole_all_\(statistic.suffix)", name: statistic.name, device: allDevice,
                availabilityTopics: [topics.topic(PiHoleTopics.availability)], options: Self.statisticOptions(statistic, stats))
        }
    }

    /// An update entity's state from `component`'s versions: `installed_version` must be a string
    /// (Home Assistant refuses the whole message otherwise, at every update), and FTL knows no
    /// core or web version when installed alone or before its first check. Unknown, the template
    /// renders nothing, which Home Assistant ignores; an unknown latest version is left out.
    static func updateTemplate(_ component: String) -> JSONValue {
        .string(
            "{% set c = value_json.get('\(component)') if \(ValueTemplate.isObject) else None %}"
                + "{% if c is mapping and c.get('installed') is string %}"
                + "{% if c.get('latest') is string %}{{ {'installed_version': c.installed, 'latest_version': c.latest} | to_json }}"
                + "{% else %}{{ {'installed_version': c.installed} | to_json }}{% endif %}{% endif %}")
    }

    private static func statisticOptions(_ statistic: Statistic, _ topic: JSONValue) -> [String: JSONValue] {
        var options: [String: JSONValue] = [
            "state_topic": topic, "state_class": "measurement", "icon": .string(statistic.icon),
            "value_template": ValueTemplate.field(statistic.field),
        ]
        if let unit = statistic.unit { options["unit_of_measurement"] = .string(unit) }
        return options
    }
}
