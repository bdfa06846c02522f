#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

/// A PUT to a rule, as strict as the real controller: only user-defined rules, only bodies
/// that conform to the closed update schema. Pure: no I/O.
enum RuleUpdate {
    /// The stored rule after the PUT: the body with the server's `id`, `metadata` and `index`
    /// added back.
    static func apply(_ body: Data, to current: JSONValue, collection: UniFiSimulator.Collection)
        -> Result<JSONValue, UpdateRejection>
    {
        // Not in the document; users report that only user-defined rules can be changed. A 400
        // with the API's error shape is what the simulator answers (a real console may differ).
        let origin = current["metadata"]?["origin"]?.stringValue ?? "USER_DEFINED"
        guard origin == "USER_DEFINED" else {
            return .failure(UpdateRejection(code: "api.request.entity-not-modifiable", message: "\(origin) entities cannot be modified"))
        }
        guard let parsed = JSONValue.parse(body), case .object(var members) = parsed else {
            return .failure(UpdateRejection(code: "api.request.malformed-body", message: "Request body must be a JSON object"))
        }
        if let rejection = collection.updateShape.rejection(of: parsed) { return .failure(rejection) }
        for key in ["id", "metadata", "index"] { members[key] = current[key] }
        return .success(.object(members))
    }

    /// A PATCH to a firewall policy (10.5.66 `patchFirewallPolicy`, body `Patch firewall policy`):
    /// `loggingEnabled` alone may change, any other property is unknown; the answer is the whole
    /// policy. ACL rules have no PATCH (405).
    static func patch(_ body: Data, to current: JSONValue) -> Result<JSONValue, UpdateRejection> {
        guard let parsed = JSONValue.parse(body), case .object(let members) = parsed else {
            return .failure(UpdateRejection(code: "api.request.malformed-body", message: "Request body must be a JSON object"))
        }
        if let rejection = UpdateShape.object(["loggingEnabled": may(.boolean)]).rejection(of: parsed) { return .failure(rejection) }
        guard case .object(var policy) = current else { return .success(current) }
        policy.merge(members) { _, new in new }
        return .success(.object(policy))
    }
}
