import BellasReefAPI
import BridgeCore

/// Home Assistant entities of the controller's device: from the configuration, the system
/// sensors and a connectivity sensor per service; while running, per outlet a switch, its
/// meters and its pending restore, and per probe a temperature sensor.
struct ReefDiscovery {
    let topics: IntegrationTopics
    let services: [BellasReefService]
    /// `reef.feed` is configured: a Feed button and a "feeding until" sensor.
    var hasFeed = false
    /// `reef.guard`: a problem sensor per guarded probe.
    var guarded: [ReefGuardConfiguration.Probe] = []
    /// `reef.interlocks`: a problem sensor per interlock, on while it holds its outlet off.
    var interlocks: [ReefInterlockConfiguration] = []

    private var device: DiscoveryDevice {
        DiscoveryDevice(identifier: "\(topics.bridge.base)_reef", name: "Bella's Reef", model: "Bella's Reef controller", manufacturer: "Bella's Reef")
    }

    private func availability(_ service: BellasReefService) -> [String] {
        [topics.topic(ReefTopics.serviceAvailability(service))]
    }

    var configured: [DiscoveryEntity] {
        let system = JSONValue.string(topics.topic(ReefTopics.system))
        let usage: [DiscoveryEntity] = [("cpu_percent", "CPU", "mdi:cpu-64-bit"), ("memory_percent", "Memory", "mdi:memory"), ("disk_percent", "Disk", "mdi:harddisk")].map { field, name, icon in
            DiscoveryEntity(
                component: "sensor", objectID: "reef_\(field)", name: name, device: device, availabilityTopics: availability(.core),
                options: [
                    "state_topic": system, "value_template": ValueTemplate.field(field), "unit_of_measurement": "%",
                    "state_class": "measurement", "icon": .string(icon), "entity_category": "diagnostic",
                ])
        }
        // Connectivity must stay readable while the service is away, so only the bridge's state gates it.
        let connectivity = services.map { service in
            DiscoveryEntity(
                component: "binary_sensor", objectID: "reef_\(service.rawValue)_connectivity", name: "\(service.rawValue.capitalized) service",
                device: device, availabilityTopics: [],
                options: [
                    "state_topic": .string(topics.topic(ReefTopics.serviceAvailability(service))), "payload_on": "online",
                    "payload_off": "offline", "device_class": "connectivity", "entity_category": "diagnostic",
                ])
        }
        let health = services.flatMap { service in
            UpstreamHealthEntities(topics: topics).entities(
                instance: service.rawValue, objectIDPrefix: "reef_\(service.rawValue)", device: device,
                label: "\(service.rawValue.capitalized) service")
        }
        return usage + connectivity + health + (hasFeed ? feedEntities : []) + guardEntities + interlockEntities
    }

    /// On while the probe is out of its limits, stale or failing; the alarm's fields as attributes.
    private var guardEntities: [DiscoveryEntity] {
        guarded.map { probe in
            let state = JSONValue.string(topics.topic(ReefTopics.alarm(probe.key)))
            return DiscoveryEntity(
                component: "binary_sensor", objectID: "reef_alarm_\(probe.key.replacing("-", with: "_"))", name: "\(probe.probe) alarm",
                device: device, availabilityTopics: [],
                options: [
                    "state_topic": state, "device_class": "problem", "json_attributes_topic": state,
                    "value_template": ValueTemplate.guarded("'OFF' if value_json.get('state') == 'ok' else 'ON'"),
                    "payload_on": "ON", "payload_off": "OFF",
                ])
        }
    }

    /// On while the interlock holds its outlet off; its fields as attributes.
    private var interlockEntities: [DiscoveryEntity] {
        interlocks.map { interlock in
            let state = JSONValue.string(topics.topic(ReefTopics.interlock(interlock.key)))
            return DiscoveryEntity(
                component: "binary_sensor", objectID: "reef_interlock_\(interlock.key.replacing("-", with: "_"))",
                name: "\(interlock.outlet) interlock", device: device, availabilityTopics: [],
                options: [
                    "state_topic": state, "device_class": "problem", "json_attributes_topic": state,
                    "value_template": ValueTemplate.guarded("'ON' if value_json.get('state') == 'tripped' else 'OFF'"),
                    "payload_on": "ON", "payload_off": "OFF",
                ])
        }
    }

    private var feedEntities: [DiscoveryEntity] {
        let state = JSONValue.string(topics.topic(ReefTopics.feed))
        return [
            DiscoveryEntity(
                component: "button", objectID: "reef_feed", name: "Feed", device: device, availabilityTopics: availability(.outlets),
                options: ["command_topic": .string(topics.topic(ReefTopics.feedStart)), "payload_press": "", "icon": "mdi:fish"]),
            DiscoveryEntity(
                component: "button", objectID: "reef_feed_cancel", name: "End feeding", device: device,
                availabilityTopics: availability(.outlets),
                options: ["command_topic": .string(topics.topic(ReefTopics.feedCancel)), "payload_press": "", "icon": "mdi:fish-off"]),
            DiscoveryEntity(
                component: "sensor", objectID: "reef_feeding_until", name: "Feeding until", device: device, availabilityTopics: [],
                options: [
                    "state_topic": state, "device_class": "timestamp", "icon": "mdi:timer-sand",
                    "value_template": ValueTemplate.guarded("value_json.get('until') if value_json.get('active') else None"),
                    // When each staged outlet comes back: after the feed's end, while it waits.
                    "json_attributes_topic": state, "json_attributes_template": ValueTemplate.attributes("{'back_at': value_json.get('back_at') or {}}"),
                ]),
        ]
    }

    /// What of a snapshot the runtime entities are made of (see `RuntimeEntityBuilder`).
    struct Things: Equatable {
        struct Outlet: Equatable {
            var key: String
            var outlet: BellasReefOutlet
        }
        struct Probe: Equatable {
            var key: String
            var probe: BellasReefProbe
        }
        var outlets: [Outlet]
        var probes: [Probe]

        init(_ snapshot: ReefSnapshot) {
            outlets = snapshot.outlets.values.sorted { $0.key < $1.key }.map { Outlet(key: $0.key, outlet: $0.outlet) }
            probes = snapshot.probes.values.sorted { $0.key < $1.key }.map { Probe(key: $0.key, probe: $0.probe) }
        }
    }

    /// The outlets' and probes' entities, for `IntegrationContext.setRuntimeEntities`.
    func runtime(_ things: Things) -> [DiscoveryEntity] {
        things.outlets.flatMap(outletEntities) + things.probes.map(probeEntity)
    }

    private func outletEntities(_ status: Things.Outlet) -> [DiscoveryEntity] {
        let key = status.key
        let name = status.outlet.name
        let state = JSONValue.string(topics.topic(ReefTopics.outlet(key)))
        // From the id, not the key: a renamed outlet keeps its entities (and their history).
        let objectID = "reef_outlet_\(status.outlet.id)"
        func entity(_ component: String, _ suffix: String?, _ entityName: String, _ options: [String: JSONValue]) -> DiscoveryEntity {
            DiscoveryEntity(
                component: component, objectID: suffix.map { "\(objectID)_\($0)" } ?? objectID, name: entityName, device: device,
                availabilityTopics: availability(.outlets), options: options.merging(["state_topic": state]) { first, _ in first })
        }
        func meter(_ field: String, _ label: String, _ deviceClass: String, _ unit: String, _ stateClass: String) -> DiscoveryEntity {
            entity("sensor", label.lowercased(), "\(name) \(label.lowercased())", [
                "value_template": ValueTemplate.field(field), "device_class": .string(deviceClass),
                "unit_of_measurement": .string(unit), "state_class": .string(stateClass),
            ])
        }
        let meters = OutletMeter.carried(by: status.outlet.driverType).map { kind in
            switch kind {
            case .power: meter("power_w", "Power", "power", "W", "measurement")
            case .voltage: meter("voltage_v", "Voltage", "voltage", "V", "measurement")
            case .current: meter("current_a", "Current", "current", "A", "measurement")
            case .energy: meter("energy_kwh", "Energy", "energy", "kWh", "total_increasing")
            }
        }
        return [
            entity("switch", nil, name, [
                "command_topic": .string(topics.topic(ReefTopics.outletSet(key))),
                "value_template": ValueTemplate.guarded("{'on': 'ON', 'off': 'OFF'}.get(value_json.get('state'))"),
                "payload_on": "ON", "payload_off": "OFF", "icon": "mdi:power-socket-eu",
            ]),
        ] + meters + [
            entity("sensor", "restore_at", "\(name) restores at", [
                "device_class": "timestamp", "value_template": ValueTemplate.field("restore_at"),
            ]),
        ]
    }

    private func probeEntity(_ status: Things.Probe) -> DiscoveryEntity {
        DiscoveryEntity(
            component: "sensor", objectID: "reef_probe_\(status.probe.address)_temperature",
            name: status.probe.name, device: device, availabilityTopics: availability(.temperature),
            options: [
                "state_topic": .string(topics.topic(ReefTopics.probe(status.key))),
                "value_template": ValueTemplate.guarded("value_json.get('value') if value_json.get('status') == 'ok' else None"),
                "device_class": "temperature", "state_class": "measurement",
                "unit_of_measurement": .string(status.probe.unitSymbol),
            ])
    }
}
