/// `ipProtocolScope.protocolFilter` of a firewall policy, per IP version, from spec 10.5.66
/// (`Firewall policy IPv4 protocol`, `… IPv6 protocol`, `… IPv4 and IPv6 protocol`): a named
/// protocol of that version's list (ICMP and ICMPv6 with an optional `typenameFilter`), a protocol
/// number, or the preset `TCP_UDP` (the UniFi app's "TCP/UDP"), so that a policy made in the app
/// can be put back as the console gave it.
enum ProtocolFilterSchemas {
    static let ipv4 = filter(names: ipv4Names, icmp: ("ICMP", icmpTypes))
    static let ipv6 = filter(names: ipv6Names, icmp: ("ICMPV6", icmpv6Types))
    static let ipv4AndIpv6 = filter(names: ipv4AndIpv6Names, icmp: nil)

    private static func filter(names: [String], icmp: (name: String, types: Set<String>)?) -> UpdateShape {
        var named = Dictionary(uniqueKeysWithValues: names.map { ($0, UpdateShape.object(["name": must(.string)])) })
        if let icmp { named[icmp.name] = .object(["name": must(.string), "typenameFilter": may(.enumeration(icmp.types))]) }
        return .discriminated(key: "type", variants: [
            "NAMED_PROTOCOL": .object([
                "type": must(.string), "protocol": must(.discriminated(key: "name", variants: named)), "matchOpposite": must(.boolean),
            ]),
            "PROTOCOL_NUMBER": .object([
                "type": must(.string), "protocolNumber": must(.bounded(0...255)), "matchOpposite": must(.boolean),
            ]),
            "PRESET": .object([
                "type": must(.string), "preset": must(.discriminated(key: "name", variants: ["TCP_UDP": .object(["name": must(.string)])])),
            ]),
        ])
    }

    /// `Firewall policy IPv4 named protocol` (ICMP apart).
    private static let ipv4Names = [
        "AH", "AX_25", "DCCP", "DDP", "EGP", "EIGRP", "ENCAP", "ESP", "ETHERIP", "FC", "GGP", "GRE", "HIP", "HMP",
        "IDPR_CMTP", "IDRP", "IGMP", "IGP", "IP", "IPCOMP", "IPENCAP", "IPIP", "ISIS", "ISO_TP4", "L2TP", "MANET",
        "MOBILITY_HEADER", "MPLS_IN_IP", "OSPF", "PIM", "PUP", "RDP", "ROHC", "RSPF", "RSVP", "SCTP", "SHIM6", "SKIP",
        "ST", "TCP", "UDP", "UDPLITE", "VMTP", "VRRP", "WESP", "XNS_IDP", "XTP",
    ]
    /// `Firewall policy IPv6 named protocol` (ICMPV6 apart).
    private static let ipv6Names = [
        "AH", "DCCP", "EIGRP", "ESP", "GRE", "IPCOMP", "IPV6", "IPV6_FRAG", "IPV6_NONXT", "IPV6_OPTS", "IPV6_ROUTE",
        "ISIS", "L2TP", "MANET", "MOBILITY_HEADER", "MPLS_IN_IP", "OSPF", "PIM", "RSVP", "SCTP", "SHIM6", "TCP", "UDP",
        "VRRP",
    ]
    /// `Firewall policy IPv4 and IPv6 named protocol`.
    private static let ipv4AndIpv6Names = [
        "AH", "DCCP", "EIGRP", "ESP", "GRE", "IPCOMP", "ISIS", "L2TP", "MANET", "MOBILITY_HEADER", "MPLS_IN_IP",
        "OSPF", "PIM", "RSVP", "SCTP", "SHIM6", "TCP", "UDP", "VRRP",
    ]
    /// `IntegrationFirewallPolicyIpv4NamedProtocolIcmpDto.typenameFilter`.
    private static let icmpTypes: Set<String> = [
        "ADDRESS_MASK_REPLY", "ADDRESS_MASK_REQUEST", "COMMUNICATION_PROHIBITED", "DESTINATION_UNREACHABLE",
        "ECHO_REPLY", "ECHO_REQUEST", "FRAGMENTATION_NEEDED", "HOST_PRECEDENCE_VIOLATION", "HOST_PROHIBITED",
        "HOST_REDIRECT", "HOST_UNKNOWN", "HOST_UNREACHABLE", "IP_HEADER_BAD", "NETWORK_PROHIBITED", "NETWORK_REDIRECT",
        "NETWORK_UNKNOWN", "NETWORK_UNREACHABLE", "PARAMETER_PROBLEM", "PORT_UNREACHABLE", "PRECEDENCE_CUTOFF",
        "PROTOCOL_UNREACHABLE", "REDIRECT", "REQUIRED_OPTION_MISSING", "ROUTER_ADVERTISEMENT", "ROUTER_SOLICITATION",
        "SOURCE_QUENCH", "SOURCE_ROUTE_FAILED", "TIME_EXCEEDED", "TIMESTAMP_REPLY", "TIMESTAMP_REQUEST",
        "TOS_HOST_REDIRECT", "TOS_HOST_UNREACHABLE", "TOS_NETWORK_REDIRECT", "TOS_NETWORK_UNREACHABLE",
        "TTL_ZERO_DURING_REASSEMBLY", "TTL_ZERO_DURING_TRANSIT",
    ]
    /// `IntegrationFirewallPolicyIpv6NamedProtocolIcmpv6Dto.typenameFilter`.
    private static let icmpv6Types: Set<String> = [
        "ADDRESS_UNREACHABLE", "BAD_HEADER", "BEYOND_SCOPE", "COMMUNICATION_PROHIBITED", "DESTINATION_UNREACHABLE",
        "ECHO_REPLY", "ECHO_REQUEST", "FAILED_POLICY", "NEIGHBOR_ADVERTISEMENT", "NEIGHBOR_SOLICITATION", "NO_ROUTE",
        "PACKET_TOO_BIG", "PARAMETER_PROBLEM", "PORT_UNREACHABLE", "REDIRECT", "REJECT_ROUTE", "ROUTER_ADVERTISEMENT",
        "ROUTER_SOLICITATION", "TIME_EXCEEDED", "TTL_ZERO_DURING_REASSEMBLY", "TTL_ZERO_DURING_TRANSIT",
        "UNKNOWN_HEADER_TYPE", "UNKNOWN_OPTION",
    ]
}
