/// What `bridge/health` says of one upstream device, as diagnostic entities of that device in
/// Home Assistant: its last successful request (off until a user turns it on: it moves every
/// minute) and its last error.
public struct UpstreamHealthEntities {
    public let topics: IntegrationTopics

    public init(topics: IntegrationTopics) {
        self.topics = topics
    }

    /// - Parameters:
    ///   - instance: the upstream's name within the integration (`main`, `outlets`).
    ///   - objectIDPrefix: the device's entities' prefix (`pihole_main`, `reef_outlets`).
    ///   - label: what the entity names start with on a device with several upstreams (`Outlets service`).
    public func entities(instance: String, objectIDPrefix: String, device: DiscoveryDevice, label: String? = nil) -> [DiscoveryEntity] {
        let key = UpstreamHealth.key(integration: topics.name, instance: instance)
        let field = { (name: String) in
            ValueTemplate.guarded("(value_json.get('upstreams') or {}).get('\(key)', {}).get('\(name)')")
        }
        let sensor = { (suffix: String, name: String, options: [String: JSONValue]) in
            DiscoveryEntity(
                component: "sensor", objectID: "\(objectIDPrefix)_\(suffix)", name: label.map { "\($0): \(name.lowercased())" } ?? name,
                device: device, availabilityTopics: [],
                options: options.merging(["state_topic": .string(topics.bridge.health), "entity_category": "diagnostic"]) { own, _ in own })
        }
        return [
            sensor("last_success", "Last successful request", [
                "value_template": field("last_success"), "device_class": "timestamp", "enabled_by_default": false,
            ]),
            sensor("last_error", "Last error", [
                "value_template": field("last_error"), "icon": "mdi:alert-circle-outline", "json_attributes_topic": .string(topics.bridge.health),
                "json_attributes_template": ValueTemplate.attributes("{'at': (value_json.get('upstreams') or {}).get('\(key)', {}).get('last_error_at')}"),
            ]),
        ]
    }
}
