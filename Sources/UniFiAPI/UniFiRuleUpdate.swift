import JSONDocument

/// The body of the PUT that switches a rule: the rule exactly as the controller sent it, with
/// only `enabled` changed and only the read-only keys removed. Never rebuilt from a struct, so
/// fields this code does not model survive. Pure: no I/O.
enum UniFiRuleUpdate {
    static func body(for rule: UniFiRule, enabled: Bool) throws(UniFiError) -> JSONValue {
        guard rule.isEditable else {
            throw UniFiError(
                .readOnly, "\(rule.kind.rawValue) rule '\(rule.name)' (\(rule.id)) is \(rule.origin): the controller does not let it be changed")
        }
        guard case .object(var members) = rule.raw else {
            throw UniFiError(.unexpectedResponse, "rule \(rule.id) is not a JSON object")
        }
        members["enabled"] = .bool(enabled)
        for key in rule.kind.readOnlyKeys { members[key] = nil }
        return .object(members)
    }
}
