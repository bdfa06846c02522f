/// What `/api/search` and `/api/clients` read, set up behind the bridge's back. Groups are named
/// (they must exist: see `addGroup`); `Default` is FTL's group 0.
extension PiHoleSimulator {
    /// Subscribes a `block` or `allow` list whose gravity run imported `domains`.
    public func addList(address: String, type: String = "block", domains: [String], groups: [String] = ["Default"], enabled: Bool = true) {
        let now = clock.now()
        core.withLockedValue { state in
            let id = (state.lists.map(\.id).max() ?? 0) + 1
            state.lists.append(SimulatedList(
                id: id, address: address, type: type, enabled: enabled, groups: state.groupIDs(groups), added: now, domains: domains))
        }
    }

    /// Adds an allow or deny entry (`exact` or `regex`) in `groups`, as the web interface would.
    public func addDomain(_ domain: String, list: String, kind: String = "exact", groups: [String] = ["Default"], enabled: Bool = true) {
        let now = clock.now()
        core.withLockedValue { state in
            state.domains.append(SimulatedDomain(
                id: state.nextDomainID, domain: kind == "exact" ? domain.lowercased() : domain, list: list, kind: kind,
                comment: nil, added: now, enabled: enabled, groups: state.groupIDs(groups)))
            state.nextDomainID += 1
        }
    }

}

extension SimulatorState {
    func groupIDs(_ names: [String]) -> [Int] {
        names.map { name in
            guard let group = groups.named(name) else { preconditionFailure("no group \(name) in the simulator: add it first") }
            return group.id
        }
    }
}
