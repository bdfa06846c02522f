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
