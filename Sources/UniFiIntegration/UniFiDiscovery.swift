import BridgeCore
import UniFiAPI

/// Home Assistant entities: per console a device with a connectivity sensor (known from the
/// configuration), and per managed rule a switch (a sensor for a read-only rule) and a
/// timestamp of its pending restore (runtime entities: they come and go with the rules).
struct UniFiDiscovery {
    let topics: IntegrationTopics

    func controllerEntities(_ controllers: [String]) -> [DiscoveryEntity] {
        let health = UpstreamHealthEntities(topics: topics)
        return controllers.flatMap { id in
            // Connectivity must stay readable while the console is away: only the bridge's state gates it.
            [DiscoveryEntity(
                component: "binary_sensor", objectID: "unifi_\(id)_connectivity", name: "Connectivity", device: device(id),
                availabilityTopics: [],
                options: [
                    "state_topic": .string(topics.topic(UniFiTopics.controllerAvailability(id))),
                    "payload_on": "online", "payload_off": "offline", "device_class": "connectivity", "entity_category": "diagnostic",
                ])]
                + health.entities(instance: id, objectIDPrefix: "unifi_\(id)", device: device(id))
        }
    }

    /// What of a rule its entities are made of (see `RuntimeEntityBuilder`), not its state.
    struct RuleThing: Equatable {
        let key: String
        let controller: String
        let id: String
        let name: String
        let kind: UniFiRuleKind
        let isEditable: Bool

        init(_ managed: ManagedRule) {
            key = managed.key
            controller = managed.controller
            id = managed.rule.id
            name = managed.rule.name
            kind = managed.rule.kind
            isEditable = managed.rule.isEditable
        }
    }

    func ruleEntities(_ rules: [RuleThing]) -> [DiscoveryEntity] {
        rules.flatMap { managed -> [DiscoveryEntity] in
            let state = JSONValue.string(topics.topic(UniFiTopics.rule(managed.key)))
            let availability = [topics.topic(UniFiTopics.controllerAvailability(managed.controller))]
            let objectID = "unifi_rule_\(managed.id)"
            let icon: JSONValue = managed.kind == .acl ? "mdi:lan-disconnect" : "mdi:wall-fire"
            let toggle = managed.isEditable
                ? DiscoveryEntity(
                    component: "switch", objectID: objectID, name: managed.name, device: device(managed.controller),
                    availabilityTopics: availability,
                    options: [
                        "state_topic": state, "command_topic": .string(topics.topic(UniFiTopics.ruleSet(managed.key))),
                        "value_template": ValueTemplate.onOff(when: "value_json.get('enabled')"),
                        "payload_on": "ON", "payload_off": "OFF", "icon": icon,
                    ])
                : DiscoveryEntity(
                    component: "binary_sensor", objectID: objectID, name: "\(managed.name) (read-only)",
                    device: device(managed.controller), availabilityTopics: availability,
                    options: [
                        "state_topic": state, "value_template": ValueTemplate.onOff(when: "value_json.get('enabled')"), "icon": icon,
                    ])
            let restoreAt = DiscoveryEntity(
                component: "sensor", objectID: "\(objectID)_restore_at", name: "\(managed.name) restores at",
                device: device(managed.controller), availabilityTopics: availability,
                options: [
                    "state_topic": state, "device_class": "timestamp",
                    "value_template": ValueTemplate.field("restore_at"),
                ])
            return [toggle, restoreAt]
        }
    }

    func device(_ controller: String) -> DiscoveryDevice {
        DiscoveryDevice(
            identifier: "\(topics.bridge.base)_unifi_\(controller)", name: "UniFi \(controller)", model: "UniFi Network",
            manufacturer: "Ubiquiti")
    }
}

extension UniFiDiscovery {
    /// Per console a button for each preset duration; one sensor with the latest code a button
    /// made, unless that is turned off.
    func voucherEntities(_ controllers: [String], _ vouchers: VoucherConfiguration) -> [DiscoveryEntity] {
        let buttons = controllers.flatMap { id in
            vouchers.presets.map { minutes in
                DiscoveryEntity(
                    component: "button", objectID: "unifi_\(id)_voucher_\(minutes)",
                    name: "Guest voucher, \(VoucherConfiguration.durationName(minutes: minutes))", device: device(id),
                    availabilityTopics: [topics.topic(UniFiTopics.controllerAvailability(id))],
                    options: [
                        "command_topic": .string(topics.topic(UniFiTopics.voucherPreset(minutes: minutes, controller: id))),
                        "payload_press": "PRESS", "icon": "mdi:ticket-confirmation",
                    ])
            }
        }
        guard vouchers.retainLatestCode, let first = controllers.first else { return buttons }
        let latest = DiscoveryEntity(
            component: "sensor", objectID: "unifi_latest_voucher", name: "Latest guest voucher", device: device(first),
            availabilityTopics: [],
            options: [
                "state_topic": .string(topics.topic(UniFiTopics.latestVoucher)), "value_template": ValueTemplate.field("code"),
                "json_attributes_topic": .string(topics.topic(UniFiTopics.latestVoucher)),
                "json_attributes_template": ValueTemplate.attributes(
                    "{'expires_at': value_json.get('expires_at'), 'minutes': value_json.get('minutes'), 'guests': value_json.get('guests'), 'note': value_json.get('note'), 'controller': value_json.get('controller')}"),
                "icon": "mdi:ticket-confirmation",
            ])
        return buttons + [latest]
    }
}
