import BridgeCore

/// Home Assistant entities: per Pi-hole a device with a blocking switch, pause buttons, a
/// "resumes at" timestamp and a connectivity sensor, statistics, updates, admin buttons and
/// diagnostics; a "pause all" button and summed statistics when there are several; and, as they
/// come and go, a switch per group.
struct PiHoleDiscovery {
    let topics: IntegrationTopics
    let configuration: PiHoleConfiguration

    var entities: [DiscoveryEntity] {
        let health = UpstreamHealthEntities(topics: topics)
        var entities = configuration.instances.flatMap {
            instanceEntities($0.id) + detailEntities($0.id) + health.entities(instance: $0.id, objectIDPrefix: "pihole_\($0.id)", device: device($0.id))
        }
        if configuration.instances.count > 1 {
            entities.append(DiscoveryEntity(
                component: "button", objectID: "pihole_all_pause", name: "Pause all", device: allDevice,
                availabilityTopics: [topics.topic(PiHoleTopics.availability)],
                options: ["command_topic": .string(topics.topic(PiHoleTopics.pause(nil))), "payload_press": "", "icon": "mdi:pause-circle"]
            ))
            entities += aggregateStatEntities
        }
        return entities
    }

    var allDevice: DiscoveryDevice {
        DiscoveryDevice(identifier: "\(topics.bridge.base)_pihole_all", name: "Pi-holes", model: "All Pi-holes", manufacturer: "Pi-hole")
    }

    func device(_ id: String) -> DiscoveryDevice {
        DiscoveryDevice(identifier: "\(topics.bridge.base)_pihole_\(id)", name: "Pi-hole \(id)", model: "Pi-hole v6", manufacturer: "Pi-hole")
    }

    /// An entity of Pi-hole `id`'s device, available while that Pi-hole answers (unless told otherwise).
    func entity(
        _ id: String, _ component: String, _ suffix: String, _ name: String, options: [String: JSONValue], availability: [String]? = nil
    ) -> DiscoveryEntity {
        DiscoveryEntity(
            component: component, objectID: "pihole_\(id)_\(suffix)", name: name, device: device(id),
            availabilityTopics: availability ?? [topics.topic(PiHoleTopics.instanceAvailability(id))], options: options)
    }

    private func instanceEntities(_ id: String) -> [DiscoveryEntity] {
        let state = JSONValue.string(topics.topic(PiHoleTopics.instance(id)))
        var entities = [
            entity(id, "switch", "blocking", "Blocking", options: [
                "state_topic": state, "command_topic": .string(topics.topic(PiHoleTopics.blockingSet(id))),
                "value_template": ValueTemplate.onOff(when: "value_json.get('blocking') == 'enabled'"),
                "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:pi-hole",
            ]),
            entity(id, "button", "resume", "Resume blocking", options: [
                "command_topic": .string(topics.topic(PiHoleTopics.resume(id))), "payload_press": "", "icon": "mdi:play-circle",
            ]),
            entity(id, "sensor", "resumes_at", "Blocking resumes at", options: [
                "state_topic": state, "device_class": "timestamp",
                "value_template": ValueTemplate.field("resumes_at"),
            ]),
            // Connectivity must stay readable while the Pi-hole is away, so only the bridge's state gates it.
            entity(id, "binary_sensor", "connectivity", "Connectivity", options: [
                "state_topic": .string(topics.topic(PiHoleTopics.instanceAvailability(id))),
                "payload_on": "online", "payload_off": "offline", "device_class": "connectivity", "entity_category": "diagnostic",
            ], availability: []),
        ]
        for seconds in configuration.pausePresets {
            entities.append(entity(id, "button", "pause_\(seconds)", "Pause \(Self.label(seconds))", options: [
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
