import JSONDocument

/// Rules as the controller returns them (with `id`, `index`, `metadata`), for tests and the
/// demo. Every shape here conforms to ``UpdateSchemas`` once the server's keys are removed.
public enum UniFiSimulatorFixtures {
    public static let lanNetworkID = "3c1f5a0e-6a7d-4b36-9d43-1f2a9b8c7d10"
    public static let switchDeviceID = "7b5d2c4e-1f0a-4e8b-a6c3-2d9e8f7a6b51"
    public static let internalZoneID = "5e8a1c0b-2f4d-4a6e-8b9c-0d1e2f3a4b5c"
    public static let externalZoneID = "6f9b2d1c-3a5e-4b7f-9c0d-1e2f3a4b5c6d"

    public static let downtimeEmmaID = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
    public static let downtimeTabletID = "1b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e"
    public static let derivedRuleID = "2c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f"
    public static let downtimeLeoID = "3d4e5f6a-7b8c-4d9e-9f0a-2b3c4d5e6f70"
    public static let systemPolicyID = "4e5f6a7b-8c9d-4e0f-8a1b-3c4d5e6f7081"

    /// An IPV4 ACL rule with nested source, destination, protocol and device filters.
    public static func ipv4ACLRule(
        id: String, name: String, index: Int, enabled: Bool = true, origin: String = "USER_DEFINED"
    ) -> JSONValue {
        [
            "type": "IPV4", "id": .string(id), "name": .string(name), "enabled": .bool(enabled), "action": "BLOCK",
            "description": "no internet at night", "index": .number(Double(index)),
            "enforcingDeviceFilter": ["type": "DEVICES", "deviceIds": [.string(switchDeviceID)]],
            "sourceFilter": ["type": "IP_ADDRESSES_OR_SUBNETS", "ipAddressesOrSubnets": ["192.168.1.50", "192.168.1.51/32"]],
            "destinationFilter": ["type": "NETWORKS", "networkIds": [.string(lanNetworkID)], "portFilter": [80, 443]],
            "protocolFilter": ["TCP", "UDP"],
            "metadata": ["origin": .string(origin)],
        ]
    }

    /// A MAC ACL rule (no `protocolFilter`: a MAC rule cannot carry one).
    public static func macACLRule(id: String, name: String, index: Int, enabled: Bool = false) -> JSONValue {
        [
            "type": "MAC", "id": .string(id), "name": .string(name), "enabled": .bool(enabled), "action": "BLOCK",
            "index": .number(Double(index)), "networkIdFilter": .string(lanNetworkID),
            "sourceFilter": ["type": "MAC_ADDRESSES", "macAddresses": ["aa:bb:cc:dd:ee:01"], "prefixLength": 48],
            "metadata": ["origin": "USER_DEFINED"],
        ]
    }

    /// A zone-based firewall policy blocking one device every evening.
    public static func firewallPolicy(
        id: String, name: String, index: Int, enabled: Bool = true, origin: String = "USER_DEFINED"
    ) -> JSONValue {
        [
            "id": .string(id), "name": .string(name), "enabled": .bool(enabled), "index": .number(Double(index)),
            "description": "homework time",
            "action": ["type": "BLOCK"],
            "source": [
                "zoneId": .string(internalZoneID),
                "trafficFilter": ["type": "MAC_ADDRESS", "macAddressFilter": ["macAddresses": ["aa:bb:cc:dd:ee:02"]]],
            ],
            "destination": ["zoneId": .string(externalZoneID)],
            "ipProtocolScope": ["ipVersion": "IPV4_AND_IPV6"],
            "connectionStateFilter": ["NEW"],
            "loggingEnabled": false,
            "schedule": ["mode": "EVERY_DAY", "timeFilter": ["startTime": "20:00", "stopTime": "07:00"]],
            "metadata": ["origin": .string(origin)],
        ]
    }
}

extension UniFiSimulator {
    /// The demo's household: ACL rules `downtime-emma` (IPV4), `Downtime tablet` (MAC) and a
    /// DERIVED one; firewall policies `Downtime Leo` and a SYSTEM_DEFINED one.
    public func addDowntimeExamples(site: String = UniFiSimulator.defaultSiteID) {
        typealias F = UniFiSimulatorFixtures
        add(F.ipv4ACLRule(id: F.downtimeEmmaID, name: "downtime-emma", index: 0), to: .aclRules, site: site)
        add(F.macACLRule(id: F.downtimeTabletID, name: "Downtime tablet", index: 1), to: .aclRules, site: site)
        add(F.ipv4ACLRule(id: F.derivedRuleID, name: "downtime guest (derived)", index: 2, origin: "DERIVED"), to: .aclRules, site: site)
        add(F.firewallPolicy(id: F.downtimeLeoID, name: "Downtime Leo", index: 10000), to: .firewallPolicies, site: site)
        add(
            F.firewallPolicy(id: F.systemPolicyID, name: "Block invalid traffic", index: 1, origin: "SYSTEM_DEFINED"),
            to: .firewallPolicies, site: site)
    }
}
