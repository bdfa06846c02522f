import BridgeCore

/// Home Assistant entities: per Pi-hole a device with a blocking switch, pause buttons, a
/// "resumes at" timestamp and a connectivity sensor; a "pause all" button when there are several.
struct PiHoleDiscovery {
    let topics: IntegrationTopics
    let configuration: PiHoleConfiguration

    var entities: [DiscoveryEntity] {
        var entities = configuration.instances.flatMap { instanceEntities($0.id) }
        if configuration.instances.count > 1 {
            let device = DiscoveryDevice(identifier: "\(topics.bridge.base)_pihole_all", name: "Pi-holes", model: "All Pi-holes", manufacturer: "Pi-hole")
            entities.append(DiscoveryEntity(
                component: "button", objectID: "pihole_all_pause", name: "Pause all", device: device,
                availabilityTopics: [topics.topic(PiHoleTopics.availability)],
                options: ["command_topic": .string(topics.topic(PiHoleTopics.pause(nil))), "payload_press": "", "icon": "mdi:pause-circle"]
            ))
        }
        return entities
    }

    private func instanceEntities(_ id: String) -> [DiscoveryEntity] {
        let device = DiscoveryDevice(identifier: "\(topics.bridge.base)_pihole_\(id)", name: "Pi-hole \(id)", model: "Pi-hole v6", manufacturer: "Pi-hole")
        let state = JSONValue.string(topics.topic(PiHoleTopics.instance(id)))
        let availability = [topics.topic(PiHoleTopics.instanceAvailability(id))]
        func entity(_ component: String, _ suffix: String, _ name: String, options: [String: JSONValue], availability: [String] = availability) -> DiscoveryEntity {
            DiscoveryEntity(component: component, objectID: "pihole_\(id)_\(suffix)", name: name, device: device, availabilityTopics: availability, options: options)
        }
        var entities = [
            entity("switch", "blocking", "Blocking", options: [
                "state_topic": state, "command_topic": .string(topics.topic(PiHoleTopics.blockingSet(id))),
                "value_template": "{{ 'ON' if value_json.blocking == 'enabled' else 'OFF' }}",
                "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:pi-hole",
            ]),
            entity("button", "resume", "Resume blocking", options: [
                "command_topic": .string(topics.topic(PiHoleTopics.resume(id))), "payload_press": "", "icon": "mdi:play-circle",
            ]),
            entity("sensor", "resumes_at", "Blocking resumes at", options: [
                "state_topic": state, "device_class": "timestamp",
                "value_template": "{{ value_json.resumes_at if value_json.resumes_at else None }}",
            ]),
            // Connectivity must stay readable while the Pi-hole is away, so only the bridge's state gates it.
            entity("binary_sensor", "connectivity", "Connectivity", options: [
                "state_topic": .string(topics.topic(PiHoleTopics.instanceAvailability(id))),
                "payload_on": "online", "payload_off": "offline", "device_class": "connectivity", "entity_category": "diagnostic",
            ], availability: []),
        ]
        for seconds in configuration.pausePresets {
            entities.append(entity("button", "pause_\(seconds)", "Pause \(Self.label(seconds))", options: [
                "command_topic": .string(topics.topic(PiHoleTopics.pause(id))), "payload_press": .string(String(seconds)), "icon": "mdi:pause",
            ]))
        }
        return entities
    }

    /// `10 s`, `5 min`, `1 h`: how a person names a preset.
    static func label(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        if seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }
}
