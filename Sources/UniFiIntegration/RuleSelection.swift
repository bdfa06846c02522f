import PlainText
import UniFiAPI

/// Which rules the bridge manages. Nothing else on the controller is read into state or touched.
enum RuleSelection: Sendable, Equatable {
    /// Every ACL rule and firewall policy whose name starts with this, in any letter case.
    case namePrefix(String)
    /// Exactly these rules, each named by its name or its id.
    case listed(Set<String>)

    static let defaultPrefix = "downtime"

    func selects(_ rule: UniFiRule) -> Bool {
        switch self {
        case .namePrefix(let prefix): rule.name.lowercased().hasPrefix(prefix.lowercased())
        case .listed(let names): names.contains(rule.name) || names.contains(rule.id.lowercased())
        }
    }

    /// A filter that saves reading rules that cannot match: the listed names and ids. A prefix
    /// cannot be filtered, since `like` is not documented to ignore letter case.
    var filter: UniFiFilter? {
        guard case .listed(let names) = self else { return nil }
        let ids = names.filter { $0.lowercasedUUID != nil }
        let plainNames = names.subtracting(ids)
        var operands: [UniFiFilter] = []
        if !plainNames.isEmpty { operands.append(.in("name", plainNames.sorted().map { .string($0) })) }
        if !ids.isEmpty { operands.append(.in("id", ids.sorted().map { .uuid($0) })) }
        return operands.count == 1 ? operands[0] : .or(operands)
    }
}
