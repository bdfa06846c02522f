import SimulatorSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONDocument

extension UniFiSimulator {
    /// The two rule collections of a site.
    public enum Collection: String, Sendable, CaseIterable {
        case aclRules = "acl-rules"
        case firewallPolicies = "firewall/policies"

        var updateShape: UpdateShape {
            switch self {
            case .aclRules: UpdateSchemas.aclRule
            case .firewallPolicies: UpdateSchemas.firewallPolicy
            }
        }

        /// What `filter` may name (spec 10.5.66's filterable-property tables).
        var filterableProperties: Set<String> {
            switch self {
            case .aclRules:
                [
                    "type", "id", "enabled", "name", "description", "action", "index", "protocolFilter", "networkId",
                    "enforcingDeviceFilter.deviceIds", "metadata.origin", "sourceFilter.type", "destinationFilter.type",
                ]
            case .firewallPolicies: ["id", "name", "source.zoneId", "destination.zoneId", "metadata.origin"]
            }
        }
    }

    public typealias RecordedRequest = SimulatorSupport.RecordedRequest

    /// Faults to inject, for every path or for paths containing a text.
    public enum Fault: Sendable, Equatable {
        /// The console proxy's 401 `{"error":{"code":401,"message":"Unauthorized"}}`.
        case unauthorized
        /// 404 `api.resource-not-found`.
        case notFound
        /// 429 with `Retry-After: seconds`.
        case rateLimited(retryAfterSeconds: Int)
        /// 500 `api.internal-error`.
        case serverError
        /// The answer comes this much later.
        case delay(Duration)
        /// The connection is closed mid-response. (The console down altogether: `stop()`, then
        /// `start()` listens again on the same port.)
        case dropConnections
        /// Every page is the first, whatever offset was asked for, and says `offset: 0`.
        case offsetStuckAtZero
        /// Each time a first page of ACL rules has been read, a rule is made on the console that
        /// sorts first, shifting every later page by one (a rule made in the app while the bridge reads).
        case listChangesBetweenPages
    }

    public enum Scheme: Sendable {
        case http
        /// With a certificate made at the first start (see ``UniFiSimulator/certificate``).
        case https
    }
}

/// An injected fault and where it applies.
struct InjectedFault: Sendable {
    let fault: UniFiSimulator.Fault
    /// `nil`: every path.
    let pathContaining: String?
}

/// Everything the simulator remembers, behind one lock.
struct UniFiSimulatorState: Sendable {
    var apiKey: String
    let applicationVersion: String
    var sites: [JSONValue] = []
    /// Site id (lowercased) → collection → rules in order.
    var rules: [String: [UniFiSimulator.Collection: [JSONValue]]] = [:]
    /// Site id (lowercased) → hotspot vouchers, newest first.
    var vouchers: [String: [JSONValue]] = [:]
    /// Site id (lowercased) → Wi-Fi broadcasts (SSIDs), in the console's order.
    var wifiBroadcasts: [String: [JSONValue]] = [:]
    var requests = RequestLog()
    var faults: [InjectedFault] = []

    /// A new user-defined ACL rule, first in `site`'s list.
    mutating func makeRuleSortingFirst(site: String) {
        let id = UUID().uuidString.lowercased()
        let rule = UniFiSimulatorFixtures.ipv4ACLRule(id: id, name: "downtime-new-\(id.prefix(8))", index: 0)
        rules[site.lowercased()]?[.aclRules]?.insert(rule, at: 0)
    }

    func fault(for path: String) -> UniFiSimulator.Fault? {
        faults.first { $0.pathContaining.map(path.contains) ?? true }?.fault
    }

    mutating func withRule<T>(
        _ collection: UniFiSimulator.Collection, site: String, id: String, _ change: (inout JSONValue) -> T
    ) -> T? {
        guard var list = rules[site.lowercased()]?[collection],
            let index = list.firstIndex(where: { $0["id"]?.stringValue?.lowercased() == id.lowercased() })
        else { return nil }
        let result = change(&list[index])
        rules[site.lowercased(), default: [:]][collection] = list
        return result
    }
}

extension RecordedRequest {
    /// The body as JSON, when it is.
    public var json: JSONValue? { JSONValue.parse(Data(body.utf8)) }
}
