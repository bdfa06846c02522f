import BridgeCore

/// Per configured client (over every Pi-hole that has it): a "pause filtering" button for each
/// of `client_pause_presets`, and a sensor of when the pause ends. Runtime entities: they come
/// and go with the clients configured on the Pi-holes.
extension PiHoleDiscovery {
    /// What of a client its entities are made of, not its state.
    struct ClientThing: Equatable {
        let key: String
        let client: String
        let label: String

        static func all(in registry: PiHoleClientRegistry) -> [ClientThing] {
            var seen = Set<String>()
            return registry.entries.compactMap { entry in
                guard seen.insert(entry.key).inserted else { return nil }
                return ClientThing(key: entry.key, client: entry.client.client, label: entry.client.name ?? entry.client.client)
            }
        }
    }

    /// Everything the Pi-holes' runtime entities are made of.
    struct RuntimeThings: Equatable, Sendable {
        let groups: [GroupThing]
        let clients: [ClientThing]
    }

    func runtimeEntities(_ things: RuntimeThings) -> [DiscoveryEntity] {
        groupEntities(things.groups) + clientEntities(things.clients)
    }

    func clientEntities(_ clients: [ClientThing]) -> [DiscoveryEntity] {
        let availability = [topics.topic(PiHoleTopics.availability)]
        return clients.flatMap { client in
            let objectID = "pihole_client_\(PiHoleGroupRegistry.nameID(client.client))"
            let buttons = configuration.clientPausePresets.map { minutes in
                DiscoveryEntity(
                    component: "button", objectID: "\(objectID)_pause_\(minutes)", name: "\(client.label): pause filtering \(minutes) min",
                    device: allDevice, availabilityTopics: availability,
                    options: [
                        "command_topic": .string(topics.topic(PiHoleTopics.clientPause(nil, key: client.key))),
                        "payload_press": .string(#"{"for":\#(minutes * 60)}"#), "icon": "mdi:shield-off-outline",
                    ])
            }
            let until = DiscoveryEntity(
                component: "sensor", objectID: "\(objectID)_paused_until", name: "\(client.label): filtering paused until",
                device: allDevice, availabilityTopics: availability,
                options: [
                    "state_topic": .string(topics.topic(PiHoleTopics.aggregateClients)), "device_class": "timestamp",
                    "value_template": ValueTemplate.guarded(
                        "None if value_json.get('\(client.key)') is not mapping else value_json['\(client.key)'].get('paused_until')"),
                    "icon": "mdi:timer-sand",
                ])
            return buttons + [until]
        }
    }
}
