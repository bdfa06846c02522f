import JSONDocument
import Testing
import UniFiSimulator

/// The simulator refuses what the real controller refuses, so that a test passing against it
/// proves the bridge sends whole, clean rules.
@Suite("UniFiSimulator PUT strictness")
struct SimulatorStrictnessTests {
    typealias F = UniFiSimulatorFixtures
    static let aclPath = "/v1/sites/\(UniFiSimulator.defaultSiteID)/acl-rules/\(F.downtimeEmmaID)"
    static let macPath = "/v1/sites/\(UniFiSimulator.defaultSiteID)/acl-rules/\(F.downtimeTabletID)"
    static let policyPath = "/v1/sites/\(UniFiSimulator.defaultSiteID)/firewall/policies/\(F.downtimeLeoID)"

    private func expectRefused(
        _ f: UniFiFixture, _ path: String, _ body: JSONValue, code: String, message: String
    ) async throws {
        let (status, answer) = try await f.direct(.PUT, path, body: body)
        #expect(status == 400, "\(body.encodedString())")
        #expect(answer?["code"]?.stringValue == code)
        #expect(answer?["message"]?.stringValue == message)
    }

    private func cleanBody(_ f: UniFiFixture, _ collection: UniFiSimulator.Collection, _ id: String, strip: [String]) throws
        -> JSONValue
    {
        try #require(f.simulator.rule(collection, id: id)).removing(strip)
    }

    @Test func aCleanBodyIsAccepted() async throws {
        try await withUniFi { f in
            let body = try cleanBody(f, .aclRules, F.downtimeEmmaID, strip: ["id", "metadata"]).setting("name", "renamed")
            let accepted = try await f.direct(.PUT, Self.aclPath, body: body)
            #expect(accepted.status == 200)
            #expect(f.simulator.rule(.aclRules, id: F.downtimeEmmaID)?["name"] == "renamed")
            #expect(f.simulator.rule(.aclRules, id: F.downtimeEmmaID)?["metadata"] == ["origin": "USER_DEFINED"])
        }
    }

    @Test func idMetadataAndPolicyIndexAreUnknownProperties() async throws {
        try await withUniFi { f in
            let acl = try cleanBody(f, .aclRules, F.downtimeEmmaID, strip: ["id", "metadata"])
            try await expectRefused(
                f, Self.aclPath, acl.setting("id", .string(F.downtimeEmmaID)), code: "api.request.unknown-property",
                message: "Unknown request body property '$.id'")
            try await expectRefused(
                f, Self.aclPath, acl.setting("metadata", ["origin": "USER_DEFINED"]), code: "api.request.unknown-property",
                message: "Unknown request body property '$.metadata'")
            let policy = try cleanBody(f, .firewallPolicies, F.downtimeLeoID, strip: ["id", "metadata", "index"])
            try await expectRefused(
                f, Self.policyPath, policy.setting("index", 4), code: "api.request.unknown-property",
                message: "Unknown request body property '$.index'")
        }
    }

    @Test func unknownNestedPropertyIsRefused() async throws {
        try await withUniFi { f in
            let acl = try cleanBody(f, .aclRules, F.downtimeEmmaID, strip: ["id", "metadata"])
            let polluted = acl.setting("sourceFilter", ["type": "IP_ADDRESSES_OR_SUBNETS", "ipAddressesOrSubnets": [], "extra": 1])
            try await expectRefused(
                f, Self.aclPath, polluted, code: "api.request.unknown-property",
                message: "Unknown request body property '$.sourceFilter.extra'")
            let policy = try cleanBody(f, .firewallPolicies, F.downtimeLeoID, strip: ["id", "metadata", "index"])
            let schedule = ["mode": "EVERY_DAY", "timeFilter": ["startTime": "20:00", "stopTime": "07:00", "timezone": "UTC"]] as JSONValue
            try await expectRefused(
                f, Self.policyPath, policy.setting("schedule", schedule), code: "api.request.unknown-property",
                message: "Unknown request body property '$.schedule.timeFilter.timezone'")
        }
    }

    @Test func missingRequiredFieldsAndWrongTypesAreRefused() async throws {
        try await withUniFi { f in
            let acl = try cleanBody(f, .aclRules, F.downtimeEmmaID, strip: ["id", "metadata"])
            try await expectRefused(
                f, Self.aclPath, acl.removing(["name"]), code: "api.request.missing-property",
                message: "Missing required request body property '$.name'")
            try await expectRefused(
                f, Self.aclPath, acl.setting("enabled", "yes"), code: "api.request.invalid-property-type",
                message: "Request body property '$.enabled' must be a boolean")
            let policy = try cleanBody(f, .firewallPolicies, F.downtimeLeoID, strip: ["id", "metadata", "index"])
            try await expectRefused(
                f, Self.policyPath, policy.removing(["loggingEnabled"]), code: "api.request.missing-property",
                message: "Missing required request body property '$.loggingEnabled'")
            #expect(f.simulator.rule(.aclRules, id: F.downtimeEmmaID)?["enabled"] == true)
        }
    }

    /// The document's `minLength` and `minimum`/`maximum`: an empty name, a negative index, a port
    /// or a prefix length out of range, a protocol number past 255.
    @Test func valuesPastTheDocumentsLimitsAreRefused() async throws {
        try await withUniFi { f in
            let acl = try cleanBody(f, .aclRules, F.downtimeEmmaID, strip: ["id", "metadata"])
            try await expectRefused(
                f, Self.aclPath, acl.setting("name", ""), code: "api.request.invalid-value",
                message: "Request body property '$.name' must not be empty")
            try await expectRefused(
                f, Self.aclPath, acl.setting("index", -1), code: "api.request.argument-out-of-range",
                message: "Request body property '$.index' must be between 0 and \(Int.max)")
            try await expectRefused(
                f, Self.aclPath, acl.setting("sourceFilter", ["type": "PORTS", "portFilter": [70000]]),
                code: "api.request.argument-out-of-range", message: "Request body property '$.sourceFilter.portFilter[0]' must be between 1 and 65535")
            let mac = try cleanBody(f, .aclRules, F.downtimeTabletID, strip: ["id", "metadata"])
            try await expectRefused(
                f, Self.macPath, mac.setting("sourceFilter", ["type": "MAC_ADDRESSES", "macAddresses": ["aa:bb:cc:00:00:00"], "prefixLength": 49]),
                code: "api.request.argument-out-of-range", message: "Request body property '$.sourceFilter.prefixLength' must be between 1 and 48")
            let policy = try cleanBody(f, .firewallPolicies, F.downtimeLeoID, strip: ["id", "metadata", "index"])
            try await expectRefused(
                f, Self.policyPath, policy.setting("name", ""), code: "api.request.invalid-value",
                message: "Request body property '$.name' must not be empty")
            try await expectRefused(
                f, Self.policyPath,
                policy.setting("ipProtocolScope", ["ipVersion": "IPV4", "protocolFilter": ["type": "PROTOCOL_NUMBER", "protocolNumber": 300, "matchOpposite": false]]),
                code: "api.request.argument-out-of-range",
                message: "Request body property '$.ipProtocolScope.protocolFilter.protocolNumber' must be between 0 and 255")
            #expect(f.simulator.rule(.aclRules, id: F.downtimeEmmaID)?["name"] == acl["name"])
        }
    }

    /// What the UniFi app makes and the document allows must go back as the console gave it: the
    /// preset TCP/UDP, an ICMP or ICMPv6 type, each version's named protocols; and no more.
    @Test func everyProtocolFilterOfTheDocumentIsAccepted() async throws {
        try await withUniFi { f in
            let policy = try cleanBody(f, .firewallPolicies, F.downtimeLeoID, strip: ["id", "metadata", "index"])
            func scope(_ version: String, _ filter: JSONValue) -> JSONValue {
                policy.setting("ipProtocolScope", ["ipVersion": .string(version), "protocolFilter": filter])
            }
            for (version, filter) in [
                ("IPV4", ["type": "PRESET", "preset": ["name": "TCP_UDP"]]),
                ("IPV4_AND_IPV6", ["type": "PRESET", "preset": ["name": "TCP_UDP"]]),
                ("IPV4", ["type": "NAMED_PROTOCOL", "protocol": ["name": "ICMP", "typenameFilter": "ECHO_REQUEST"], "matchOpposite": false]),
                ("IPV6", ["type": "NAMED_PROTOCOL", "protocol": ["name": "ICMPV6", "typenameFilter": "PACKET_TOO_BIG"], "matchOpposite": false]),
                ("IPV4_AND_IPV6", ["type": "NAMED_PROTOCOL", "protocol": ["name": "UDP"], "matchOpposite": true]),
            ] as [(String, JSONValue)] {
                let (status, answer) = try await f.direct(.PUT, Self.policyPath, body: scope(version, filter))
                #expect(status == 200, "\(version) \(filter.encodedString()): \(answer?.encodedString() ?? "")")
                #expect(f.simulator.rule(.firewallPolicies, id: F.downtimeLeoID)?["ipProtocolScope"]?["protocolFilter"] == filter)
            }
            try await expectRefused(
                f, Self.policyPath, scope("IPV4", ["type": "PRESET", "preset": ["name": "ALL"]]), code: "api.request.invalid-value",
                message: "Invalid value 'ALL' of request body property '$.ipProtocolScope.protocolFilter.preset.name'")
            try await expectRefused(
                f, Self.policyPath, scope("IPV4_AND_IPV6", ["type": "NAMED_PROTOCOL", "protocol": ["name": "ICMP"], "matchOpposite": false]),
                code: "api.request.invalid-value",
                message: "Invalid value 'ICMP' of request body property '$.ipProtocolScope.protocolFilter.protocol.name'")
            try await expectRefused(
                f, Self.policyPath,
                scope("IPV4", ["type": "NAMED_PROTOCOL", "protocol": ["name": "TCP", "typenameFilter": "ECHO_REQUEST"], "matchOpposite": false]),
                code: "api.request.unknown-property", message: "Unknown request body property '$.ipProtocolScope.protocolFilter.protocol.typenameFilter'")
            try await expectRefused(
                f, Self.policyPath,
                scope("IPV4", ["type": "NAMED_PROTOCOL", "protocol": ["name": "ICMP", "typenameFilter": "PACKET_TOO_BIG"], "matchOpposite": false]),
                code: "api.request.invalid-value",
                message: "Invalid value 'PACKET_TOO_BIG' of request body property '$.ipProtocolScope.protocolFilter.protocol.typenameFilter'")
        }
    }

    /// `patchFirewallPolicy`: `loggingEnabled` alone, the whole policy back; an ACL rule has no PATCH.
    @Test func aPolicysLoggingIsPatchedAndNothingElse() async throws {
        try await withUniFi { f in
            let before = try #require(f.simulator.rule(.firewallPolicies, id: F.downtimeLeoID))
            let (status, answer) = try await f.direct(.PATCH, Self.policyPath, body: ["loggingEnabled": true])
            #expect(status == 200)
            #expect(answer?["loggingEnabled"] == true && answer?["name"] == before["name"] && answer?["id"] == before["id"])
            #expect(f.simulator.rule(.firewallPolicies, id: F.downtimeLeoID)?["loggingEnabled"] == true)
            let refused = try await f.direct(.PATCH, Self.policyPath, body: ["enabled": false])
            #expect(refused.status == 400 && refused.body?["code"] == "api.request.unknown-property")
            #expect(f.simulator.rule(.firewallPolicies, id: F.downtimeLeoID)?["enabled"] == before["enabled"])
            #expect(try await f.direct(.PATCH, Self.aclPath, body: ["loggingEnabled": true]).status == 405)
        }
    }

    @Test func macRuleMustNotCarryAProtocolFilter() async throws {
        try await withUniFi { f in
            let mac = try cleanBody(f, .aclRules, F.downtimeTabletID, strip: ["id", "metadata"])
            let macAccepted = try await f.direct(.PUT, Self.macPath, body: mac)
            #expect(macAccepted.status == 200)
            try await expectRefused(
                f, Self.macPath, mac.setting("protocolFilter", ["TCP"]), code: "api.request.unknown-property",
                message: "Unknown request body property '$.protocolFilter'")
        }
    }

    @Test func derivedRuleCannotBeChanged() async throws {
        try await withUniFi { f in
            let derived = try cleanBody(f, .aclRules, F.derivedRuleID, strip: ["id", "metadata"])
            let path = "/v1/sites/\(UniFiSimulator.defaultSiteID)/acl-rules/\(F.derivedRuleID)"
            let (status, answer) = try await f.direct(.PUT, path, body: derived.setting("enabled", false))
            #expect(status == 400)
            #expect(answer?["code"] == "api.request.entity-not-modifiable")
        }
    }

    @Test func pagesAndFiltersFollowTheSpec() async throws {
        try await withUniFi { f in
            let base = "/v1/sites/\(UniFiSimulator.defaultSiteID)"
            let limitTooLarge = try await f.direct(.GET, base + "/acl-rules?limit=201")
            #expect(limitTooLarge.status == 400)
            let negativeOffset = try await f.direct(.GET, base + "/acl-rules?offset=-1")
            #expect(negativeOffset.status == 400)
            let page = try await f.direct(.GET, base + "/acl-rules?limit=2")
            #expect(page.body?["count"] == 2 && page.body?["totalCount"] == 3 && page.body?["limit"] == 2)
            let notFilterable = try await f.direct(.GET, base + "/firewall/policies?filter=enabled.eq(true)")
            #expect(notFilterable.status == 400)
            let siteNotAUUID = try await f.direct(.GET, "/v1/sites/default/acl-rules")
            #expect(siteNotAUUID.body?["code"] == "api.request.argument-type-mismatch")
            let (status, body) = try await f.direct(.GET, "/v1/info", apiKey: "nope")
            #expect(status == 401 && body == ["error": ["code": 401, "message": "Unauthorized"]])
        }
    }
}
