import JSONDocument

/// Which endpoint a rule lives on.
public enum UniFiRuleKind: String, Sendable, CaseIterable {
    case acl
    case firewallPolicy = "firewall_policy"

    /// The collection's path below `/v1/sites/{siteId}`.
    var collectionPath: String {
        switch self {
        case .acl: "/acl-rules"
        case .firewallPolicy: "/firewall/policies"
        }
    }

    /// Top-level keys of the GET answer that the PUT schema does not take (spec 10.5.66:
    /// `ACL rule` vs `ACL rule update`, `Firewall policy` vs `Create or update firewall policy`).
    /// Only these are stripped: an unknown key is sent back and refused loudly by the
    /// controller, rather than silently dropped (a PUT replaces the whole rule).
    var readOnlyKeys: [String] {
        switch self {
        case .acl: ["id", "metadata"]
        case .firewallPolicy: ["id", "metadata", "index"]
        }
    }
}

/// `metadata.origin`: only user-defined rules can be changed.
public enum UniFiRuleOrigin: Sendable, Equatable, CustomStringConvertible {
    case userDefined
    case derived
    case systemDefined
    case other(String)

    init(_ text: String) {
        switch text {
        case "USER_DEFINED": self = .userDefined
        case "DERIVED": self = .derived
        case "SYSTEM_DEFINED": self = .systemDefined
        default: self = .other(text)
        }
    }

    public var description: String {
        switch self {
        case .userDefined: "USER_DEFINED"
        case .derived: "DERIVED"
        case .systemDefined: "SYSTEM_DEFINED"
        case .other(let text): text
        }
    }
}

/// An ACL rule or a firewall policy: a small typed view over the JSON object the controller
/// sent, which is kept whole in `raw` so that an update can send back every field unchanged.
public struct UniFiRule: Sendable, Equatable {
    public let kind: UniFiRuleKind
    public let id: String
    public let name: String
    public let enabled: Bool
    /// `ALLOW`/`BLOCK` (ACL rules) or the policy's `action.type` (`ALLOW`/`BLOCK`/`REJECT`).
    public let action: String
    public let origin: UniFiRuleOrigin
    public let raw: JSONValue

    public init(kind: UniFiRuleKind, raw: JSONValue) throws(UniFiError) {
        guard let id = raw["id"]?.stringValue, let name = raw["name"]?.stringValue,
            let enabled = raw["enabled"]?.boolValue
        else {
            throw UniFiError(.unexpectedResponse, "a \(kind.rawValue) rule without id, name or enabled: \(raw.encodedString())")
        }
        let action = kind == .acl ? raw["action"]?.stringValue : raw["action"]?["type"]?.stringValue
        self.kind = kind
        self.id = id
        self.name = name
        self.enabled = enabled
        self.action = action ?? "UNKNOWN"
        self.origin = UniFiRuleOrigin(raw["metadata"]?["origin"]?.stringValue ?? "UNKNOWN")
        self.raw = raw
    }

    public var isEditable: Bool { origin == .userDefined }
}
