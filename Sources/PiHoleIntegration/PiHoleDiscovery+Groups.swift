import BridgeCore

/// A switch per group and Pi-hole (the Default group only shown: disabling it changes every
/// device), and with several Pi-holes a switch per group name that switches it on all of them.
/// Runtime entities: they come and go with the groups.
extension PiHoleDiscovery {
    /// What of a group its entities are made of (see `RuntimeEntityBuilder`), not its state.
    struct GroupThing: Equatable {
        let pihole: String
        let key: String
        let name: String
        let isDefault: Bool

        init(_ entry: PiHoleGroupRegistry.Entry) {
            pihole = entry.pihole
            key = entry.key
            name = entry.group.name
            isDefault = entry.group.isDefault
        }
    }

    func groupEntities(_ groups: [GroupThing]) -> [DiscoveryEntity] {
        var entities = groups.map { entry in
            let state = JSONValue.string(topics.topic(PiHoleTopics.groups(entry.pihole)))
            let valueTemplate = Self.groupTemplate(entry.key, on: "get('enabled')")
            let objectSuffix = "group_\(PiHoleGroupRegistry.nameID(entry.name))"
            guard !entry.isDefault else {
                return entity(entry.pihole, "binary_sensor", objectSuffix, "Group \(entry.name)", options: [
                    "state_topic": state, "value_template": valueTemplate, "icon": "mdi:account-group",
                ])
            }
            return entity(entry.pihole, "switch", objectSuffix, "Group \(entry.name)", options: [
                "state_topic": state, "value_template": valueTemplate, "icon": "mdi:account-group",
                "command_topic": .string(topics.topic(PiHoleTopics.groupSet(entry.pihole, key: entry.key))),
                "payload_on": "ON", "payload_off": "OFF",
            ])
        }
        guard configuration.instances.count > 1 else { return entities }
        let aggregate = JSONValue.string(topics.topic(PiHoleTopics.aggregateGroups))
        var seen = Set<String>()
        for entry in groups where !entry.isDefault && seen.insert(entry.key).inserted {
            entities.append(DiscoveryEntity(
                component: "switch", objectID: "pihole_all_group_\(PiHoleGroupRegistry.nameID(entry.name))",
                name: "Group \(entry.name)", device: allDevice, availabilityTopics: [topics.topic(PiHoleTopics.availability)],
                options: [
                    "state_topic": aggregate, "command_topic": .string(topics.topic(PiHoleTopics.groupSet(nil, key: entry.key))),
                    "value_template": Self.groupTemplate(entry.key, on: "get('state') != 'disabled'"),
                    "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:account-group",
                ]))
        }
        return entities
    }

    /// A group's switch, from the state that lists the groups by key: `None` (unknown) while the
    /// group is not in it (it went away), else `ON` when `on` (a call on its entry) holds.
    static func groupTemplate(_ key: String, on condition: String) -> JSONValue {
        ValueTemplate.guarded("None if value_json.get('\(key)') is not mapping else ('ON' if value_json['\(key)'].\(condition) else 'OFF')")
    }
}
