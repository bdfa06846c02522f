/// Turns declared entities into the retained discovery messages Home Assistant reads.
public struct DiscoveryConfig: Sendable {
    public let topics: DiscoveryTopics
    public let bridgeTopics: BridgeTopics
    public let version: String

    public init(topics: DiscoveryTopics, bridgeTopics: BridgeTopics, version: String) {
        self.topics = topics
        self.bridgeTopics = bridgeTopics
        self.version = version
    }

    /// The bridge itself: a device with a connectivity sensor on `bridge/state`.
    public var bridgeDevice: DiscoveryDevice {
        DiscoveryDevice(identifier: topics.nodeID, name: "home2mqtt (\(bridgeTopics.base))", model: "home2mqtt bridge", manufacturer: "home2mqtt", viaBridge: false)
    }

    public var bridgeEntity: DiscoveryEntity {
        DiscoveryEntity(
            component: "binary_sensor", objectID: "bridge_connection", name: "Connection", device: bridgeDevice,
            availabilityTopics: [],
            options: [
                "state_topic": .string(bridgeTopics.state), "payload_on": "online", "payload_off": "offline",
                "device_class": "connectivity", "entity_category": "diagnostic",
            ]
        )
    }

    /// The bridge's device: its connection, and what `bridge/health` says of the bridge itself as
    /// diagnostics, those that move every minute off until a user turns them on.
    var bridgeEntities: [DiscoveryEntity] {
        let sensor = { (objectID: String, name: String, field: String, options: [String: JSONValue]) in
            DiscoveryEntity(
                component: "sensor", objectID: objectID, name: name, device: bridgeDevice, availabilityTopics: [],
                options: options.merging([
                    "state_topic": .string(bridgeTopics.health), "value_template": ValueTemplate.field(field), "entity_category": "diagnostic",
                ]) { own, _ in own })
        }
        return [
            bridgeEntity,
            sensor("bridge_uptime", "Uptime", "uptime_seconds", [
                "device_class": "duration", "unit_of_measurement": "s", "enabled_by_default": false,
            ]),
            sensor("bridge_resident_memory", "Resident memory", "resident_memory_bytes", [
                "device_class": "data_size", "unit_of_measurement": "B", "state_class": "measurement", "enabled_by_default": false,
            ]),
            sensor("bridge_mqtt_reconnects", "MQTT reconnects", "mqtt_reconnects", ["state_class": "total_increasing", "icon": "mdi:lan-disconnect"]),
            sensor("bridge_pending_restores", "Pending restores", "pending_restores", ["state_class": "measurement", "icon": "mdi:timer-sand"]),
        ]
    }

    public func uniqueID(_ entity: DiscoveryEntity) -> String {
        "\(topics.nodeID)_\(entity.objectID)"
    }

    public func message(for entity: DiscoveryEntity) -> (topic: String, payload: JSONValue) {
        var config = entity.options
        config["unique_id"] = .string(uniqueID(entity))
        config["default_entity_id"] = .string("\(entity.component).\(uniqueID(entity))")
        config["name"] = entity.name.map(JSONValue.string) ?? .null
        var device: [String: JSONValue] = [
            "identifiers": [.string(entity.device.identifier)],
            "name": .string(entity.device.name),
            "model": .string(entity.device.model),
            "manufacturer": .string(entity.device.manufacturer),
        ]
        if entity.device.viaBridge { device["via_device"] = .string(topics.nodeID) } else { device["sw_version"] = .string(version) }
        config["device"] = .object(device)
        config["origin"] = ["name": "home2mqtt", "sw_version": .string(version)]
        let availability = entity.availabilityTopics.isEmpty && entity.objectID == bridgeEntity.objectID
            ? [] : [bridgeTopics.state] + entity.availabilityTopics
        if !availability.isEmpty {
            config["availability"] = .array(availability.map { ["topic": .string($0)] })
            config["availability_mode"] = "all"
        }
        return (topics.config(component: entity.component, objectID: entity.objectID), .object(config))
    }
}
