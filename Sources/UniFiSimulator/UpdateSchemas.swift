/// The PUT bodies the simulator accepts, written by hand from spec 10.5.66's update schemas
/// (`ACL rule update` and its IPV4/MAC variants, `Create or update firewall policy`) and closed
/// as the real controller is, with the document's limits (`minLength`, `minimum`, `maximum`).
/// Traffic-filter variants the simulator never serves (regions,
/// VPNs, applications, traffic-matching lists) are left out: a body using them is refused as an
/// invalid value. Every protocol filter is in (`ProtocolFilterSchemas`).
enum UpdateSchemas {
    static let aclRule = UpdateShape.discriminated(key: "type", variants: [
        "IPV4": .object(aclCommon.merging([
            "type": must(.enumeration(["IPV4"])),
            "sourceFilter": may(ipEndpoint),
            "destinationFilter": may(ipEndpoint),
            "protocolFilter": may(.array(.enumeration(["TCP", "UDP"]))),
        ]) { $1 }),
        // A MAC rule has no protocolFilter: sending one is an unknown property.
        "MAC": .object(aclCommon.merging([
            "type": must(.enumeration(["MAC"])),
            "sourceFilter": may(macEndpoint),
            "destinationFilter": may(macEndpoint),
            "networkIdFilter": must(.uuid),
        ]) { $1 }),
    ])

    private static let aclCommon: [String: UpdateShape.Field] = [
        "enabled": must(.boolean),
        "name": must(.nonEmptyString),
        "description": may(.string),
        "action": must(.enumeration(["ALLOW", "BLOCK"])),
        "enforcingDeviceFilter": may(.discriminated(key: "type", variants: [
            "DEVICES": .object(["type": must(.string), "deviceIds": must(.array(.uuid))]),
        ])),
        // Deprecated and ignored, but accepted.
        "index": may(.bounded(0...Int.max)),
    ]

    private static let port = UpdateShape.bounded(1...65535)
    private static let ports = UpdateShape.array(port)

    private static let ipEndpoint = UpdateShape.discriminated(key: "type", variants: [
        "IP_ADDRESSES_OR_SUBNETS": .object([
            "type": must(.string), "ipAddressesOrSubnets": must(.array(.string)), "portFilter": may(ports),
        ]),
        "NETWORKS": .object(["type": must(.string), "networkIds": must(.array(.uuid)), "portFilter": may(ports)]),
        "PORTS": .object(["type": must(.string), "portFilter": must(ports)]),
    ])

    private static let macEndpoint = UpdateShape.discriminated(key: "type", variants: [
        "MAC_ADDRESSES": .object([
            "type": must(.string), "macAddresses": must(.array(.string)), "prefixLength": may(.bounded(1...48)),
        ]),
    ])

    static let firewallPolicy = UpdateShape.object([
        "enabled": must(.boolean),
        "name": must(.nonEmptyString),
        "description": may(.string),
        "action": must(.discriminated(key: "type", variants: [
            "ALLOW": .object(["type": must(.string), "allowReturnTraffic": must(.boolean)]),
            "BLOCK": .object(["type": must(.string)]),
            "REJECT": .object(["type": must(.string)]),
        ])),
        "source": must(.object(["zoneId": must(.uuid), "trafficFilter": may(sourceTrafficFilter)])),
        "destination": must(.object(["zoneId": must(.uuid), "trafficFilter": may(destinationTrafficFilter)])),
        "ipProtocolScope": must(.discriminated(key: "ipVersion", variants: [
            "IPV4": .object(["ipVersion": must(.string), "protocolFilter": may(ProtocolFilterSchemas.ipv4)]),
            "IPV6": .object(["ipVersion": must(.string), "protocolFilter": may(ProtocolFilterSchemas.ipv6)]),
            "IPV4_AND_IPV6": .object(["ipVersion": must(.string), "protocolFilter": may(ProtocolFilterSchemas.ipv4AndIpv6)]),
        ])),
        "connectionStateFilter": may(.array(.enumeration(["NEW", "INVALID", "ESTABLISHED", "RELATED"]))),
        "ipsecFilter": may(.enumeration(["MATCH_ENCRYPTED", "MATCH_NOT_ENCRYPTED"])),
        "loggingEnabled": must(.boolean),
        "schedule": may(schedule),
    ])

    private static let portFilter = UpdateShape.discriminated(key: "type", variants: [
        "PORTS": .object([
            "type": must(.string), "matchOpposite": must(.boolean),
            "items": must(.array(.discriminated(key: "type", variants: [
                "PORT_NUMBER": .object(["type": must(.string), "value": must(port)]),
                "PORT_NUMBER_RANGE": .object(["type": must(.string), "start": must(port), "stop": must(port)]),
            ]))),
        ]),
    ])

    private static let ipAddressFilter = UpdateShape.discriminated(key: "type", variants: [
        "IP_ADDRESSES": .object([
            "type": must(.string), "matchOpposite": must(.boolean),
            "items": must(.array(.discriminated(key: "type", variants: [
                "IP_ADDRESS": .object(["type": must(.string), "value": must(.string)]),
                "SUBNET": .object(["type": must(.string), "value": must(.string)]),
                "IP_ADDRESS_RANGE": .object(["type": must(.string), "start": must(.string), "stop": must(.string)]),
            ]))),
        ]),
    ])

    private static let networkFilter = UpdateShape.object([
        "networkIds": must(.array(.uuid)), "matchOpposite": must(.boolean),
    ])

    private static let sourceTrafficFilter = UpdateShape.discriminated(key: "type", variants: [
        "PORT": .object(["type": must(.string), "portFilter": must(portFilter)]),
        "NETWORK": .object([
            "type": must(.string), "networkFilter": must(networkFilter),
            "macAddressFilter": may(.string), "portFilter": may(portFilter),
        ]),
        "MAC_ADDRESS": .object([
            "type": must(.string), "macAddressFilter": must(.object(["macAddresses": must(.array(.string))])),
            "portFilter": may(portFilter),
        ]),
        "IP_ADDRESS": .object([
            "type": must(.string), "ipAddressFilter": must(ipAddressFilter),
            "macAddressFilter": may(.string), "portFilter": may(portFilter),
        ]),
    ])

    private static let destinationTrafficFilter = UpdateShape.discriminated(key: "type", variants: [
        "PORT": .object(["type": must(.string), "portFilter": must(portFilter)]),
        "NETWORK": .object(["type": must(.string), "networkFilter": must(networkFilter), "portFilter": may(portFilter)]),
        "IP_ADDRESS": .object(["type": must(.string), "ipAddressFilter": must(ipAddressFilter), "portFilter": may(portFilter)]),
        "DOMAIN": .object([
            "type": must(.string),
            "domainFilter": must(.discriminated(key: "type", variants: [
                "DOMAINS": .object(["type": must(.string), "domains": must(.array(.string))]),
            ])),
            "portFilter": may(portFilter),
        ]),
    ])

    private static let timeFilter = UpdateShape.object(["startTime": must(.string), "stopTime": must(.string)])
    private static let days = UpdateShape.array(.enumeration(["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"]))

    private static let schedule = UpdateShape.discriminated(key: "mode", variants: [
        "EVERY_DAY": .object(["mode": must(.string), "timeFilter": must(timeFilter)]),
        "EVERY_WEEK": .object(["mode": must(.string), "timeFilter": may(timeFilter), "repeatOnDays": must(days)]),
        "ONE_TIME_ONLY": .object(["mode": must(.string), "timeFilter": must(timeFilter), "date": must(.string)]),
        "CUSTOM": .object([
            "mode": must(.string), "timeFilter": may(timeFilter), "repeatOnDays": must(days),
            "startDate": must(.string), "stopDate": must(.string),
        ]),
    ])
}
