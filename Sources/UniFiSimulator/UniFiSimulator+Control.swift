#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import JSONDocument

extension UniFiSimulator {
    // MARK: - Data

    /// Adds a site; returns its id.
    @discardableResult
    public func addSite(name: String, internalReference: String, id: String = UUID().uuidString.lowercased()) -> String {
        core.withLockedValue { state in
            state.sites.append(["id": .string(id), "internalReference": .string(internalReference), "name": .string(name)])
            state.rules[id.lowercased()] = [:]
        }
        return id
    }

    /// Stores `rule` as the controller would return it (it must carry `id`, `index` and
    /// `metadata`; see ``UniFiSimulatorFixtures``).
    public func add(_ rule: JSONValue, to collection: Collection, site: String = UniFiSimulator.defaultSiteID) {
        core.withLockedValue { $0.rules[site.lowercased(), default: [:]][collection, default: []].append(rule) }
    }

    /// Adds `count` user-defined IPV4 ACL rules named `prefix-1`…; returns their ids.
    @discardableResult
    public func addGeneratedACLRules(count: Int, namePrefix: String = "generated", site: String = UniFiSimulator.defaultSiteID)
        -> [String]
    {
        let existing = core.withLockedValue { $0.rules[site.lowercased()]?[.aclRules]?.count ?? 0 }
        return (0..<count).map { number in
            let id = UUID().uuidString.lowercased()
            add(
                UniFiSimulatorFixtures.ipv4ACLRule(id: id, name: "\(namePrefix)-\(number + 1)", index: existing + number),
                to: .aclRules, site: site)
            return id
        }
    }

    /// The stored rule, as a GET would answer it.
    public func rule(_ collection: Collection, id: String, site: String = UniFiSimulator.defaultSiteID) -> JSONValue? {
        core.withLockedValue { $0.withRule(collection, site: site, id: id) { $0 } }
    }

    /// Renames a rule, as if someone did in the UniFi interface.
    public func rename(_ collection: Collection, id: String, to name: String, site: String = UniFiSimulator.defaultSiteID) {
        change(collection, id: id, site: site) { $0["name"] = .string(name) }
    }

    /// Switches a rule directly, as if someone did in the UniFi interface.
    public func setEnabled(_ collection: Collection, id: String, _ enabled: Bool, site: String = UniFiSimulator.defaultSiteID) {
        change(collection, id: id, site: site) { $0["enabled"] = .bool(enabled) }
    }

    /// Deletes a rule directly.
    public func delete(_ collection: Collection, id: String, site: String = UniFiSimulator.defaultSiteID) {
        core.withLockedValue { state in
            state.rules[site.lowercased()]?[collection]?.removeAll { $0["id"]?.stringValue?.lowercased() == id.lowercased() }
        }
    }

    public func setAPIKey(_ key: String) {
        core.withLockedValue { $0.apiKey = key }
    }

    private func change(_ collection: Collection, id: String, site: String, _ edit: (inout [String: JSONValue]) -> Void) {
        core.withLockedValue { state in
            _ = state.withRule(collection, site: site, id: id) { rule in
                guard case .object(var members) = rule else { return }
                edit(&members)
                rule = .object(members)
            }
        }
    }

    // MARK: - Faults

    /// Injects `fault` for every request whose path contains `pathContaining` (nil: all).
    /// Earlier faults win where several apply.
    public func inject(_ fault: Fault, pathContaining: String? = nil) {
        core.withLockedValue { $0.faults.append(InjectedFault(fault: fault, pathContaining: pathContaining)) }
    }

    public func clearFaults() {
        core.withLockedValue { $0.faults.removeAll() }
    }

    // MARK: - Observation

    /// The requests received, in order: the newest ``RequestLog/defaultCapacity``.
    public var requests: [RecordedRequest] { core.withLockedValue { $0.requests.requests } }

    /// Every request received since the start or the last ``clearRequests()``, kept or not.
    public var requestTotal: Int { core.withLockedValue { $0.requests.total } }

    public func clearRequests() {
        core.withLockedValue { $0.requests.removeAll() }
    }

    /// Requests with `method` whose path contains `pathContaining` (nil: any).
    public func requestCount(method: String? = nil, pathContaining: String? = nil) -> Int {
        requests(method: method, pathContaining: pathContaining).count
    }

    /// The JSON bodies of the PUTs whose path contains `pathContaining` (nil: any), in order.
    public func putBodies(pathContaining: String? = nil) -> [JSONValue] {
        requests(method: "PUT", pathContaining: pathContaining).compactMap(\.json)
    }

    private func requests(method: String?, pathContaining: String?) -> [RecordedRequest] {
        requests.filter { request in
            (method.map { request.method == $0 } ?? true) && (pathContaining.map { request.path.contains($0) } ?? true)
        }
    }
}

extension UniFiSimulator {
    // MARK: - Vouchers

    /// The site's hotspot vouchers (with their codes), newest first.
    public func vouchers(site: String = UniFiSimulator.defaultSiteID) -> [JSONValue] {
        core.withLockedValue { $0.vouchers[site.lowercased()] ?? [] }
    }

    /// Makes `count` vouchers directly, as someone in the UniFi app would.
    public func addVouchers(count: Int, note: String = "made in the app", minutes: Int = 480, site: String = UniFiSimulator.defaultSiteID) {
        core.withLockedValue { state in
            for _ in 0..<count {
                let code = VoucherEndpoints.uniqueCode(in: state.vouchers[site.lowercased()] ?? [])
                state.vouchers[site.lowercased(), default: []].insert(VoucherEndpoints.voucher(code: code, note: note, minutes: minutes), at: 0)
            }
        }
    }

    /// A guest signs in with the voucher: it is activated and its minutes start to run.
    public func useVoucher(id: String, site: String = UniFiSimulator.defaultSiteID, at now: Date = Date()) {
        core.withLockedValue { state in
            guard let index = state.vouchers[site.lowercased()]?.firstIndex(where: { $0["id"]?.stringValue == id }),
                  case .object(var voucher) = state.vouchers[site.lowercased()]![index] else { return }
            let minutes = voucher["timeLimitMinutes"]?.numberValue ?? 0
            voucher["authorizedGuestCount"] = .number((voucher["authorizedGuestCount"]?.numberValue ?? 0) + 1)
            if voucher["activatedAt"] == nil {
                voucher["activatedAt"] = .string(now.formatted(.iso8601))
                voucher["expiresAt"] = .string(now.addingTimeInterval(minutes * 60).formatted(.iso8601))
            }
            state.vouchers[site.lowercased()]![index] = .object(voucher)
        }
    }
}
