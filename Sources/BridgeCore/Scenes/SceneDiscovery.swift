/// Home Assistant: a switch per scene, and the time it ends.
struct SceneDiscovery {
    let topics: IntegrationTopics

    private var device: DiscoveryDevice {
        DiscoveryDevice(identifier: "\(topics.bridge.base)_scenes", name: "home2mqtt scenes", model: "Scenes", manufacturer: "home2mqtt")
    }

    func entities(_ scenes: [Scene]) -> [DiscoveryEntity] {
        scenes.flatMap { scene in
            let state = JSONValue.string(topics.topic(SceneTopics.state(scene.key)))
            let id = scene.key.replacing("-", with: "_")
            return [
                DiscoveryEntity(
                    component: "switch", objectID: "scene_\(id)", name: scene.name, device: device, availabilityTopics: [],
                    options: [
                        "command_topic": .string(topics.topic(SceneTopics.set(scene.key))), "state_topic": state,
                        "payload_on": "ON", "payload_off": "OFF",
                        "value_template": ValueTemplate.onOff(when: "value_json.get('state') != 'off'"),
                        "json_attributes_topic": state, "icon": "mdi:palette",
                    ]),
                DiscoveryEntity(
                    component: "sensor", objectID: "scene_\(id)_until", name: "\(scene.name) until", device: device, availabilityTopics: [],
                    options: [
                        "state_topic": state, "device_class": "timestamp", "icon": "mdi:timer-sand",
                        "value_template": ValueTemplate.field("until"),
                    ]),
            ]
        }
    }
}
