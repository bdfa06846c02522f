import BridgeCore
import PiHoleAPI

/// An allow- or deny-list change, checked before it reaches any Pi-hole.
struct DomainChange: Equatable, Sendable {
    enum Action: String, Sendable { case add, remove }

    let list: PiHoleDomainList
    let action: Action
    let domain: String
    let kind: PiHoleDomainKind
    let comment: String?

    static func parse(list: String, action: String, payload: CommandRequest.Payload) throws(CommandError) -> DomainChange {
        guard let list = PiHoleDomainList(rawValue: list) else {
            throw CommandError("unknown domain list '\(list)': use allow or deny", code: .unknownTarget)
        }
        guard let action = Action(rawValue: action) else {
            throw CommandError("unknown domain action '\(action)': use add or remove", code: .unknownTarget)
        }
        var domain = ""
        var kind = PiHoleDomainKind.exact
        var comment: String?
        switch payload {
        case .empty:
            break
        case .text(let text):
            domain = text
        case .json(let json):
            domain = json["domain"]?.stringValue ?? ""
            if let kindName = json["kind"]?.stringValue {
                guard let parsed = PiHoleDomainKind(rawValue: kindName) else {
                    throw CommandError("unknown domain kind '\(kindName)': use exact or regex")
                }
                kind = parsed
            }
            comment = json["comment"]?.stringValue
        }
        try validate(domain, kind: kind)
        return DomainChange(list: list, action: action, domain: kind == .exact ? domain.lowercased() : domain, kind: kind, comment: comment)
    }

    /// Refuses what the Pi-hole would refuse or store as junk: nothing, white space, and (for
    /// exact entries) anything that is not a host name.
    static func validate(_ domain: String, kind: PiHoleDomainKind) throws(CommandError) {
        guard !domain.isEmpty else { throw CommandError("no domain given") }
        guard !domain.contains(where: \.isWhitespace) else {
            throw CommandError("'\(domain)' contains white space, which a domain cannot")
        }
        guard kind == .exact else { return }
        guard isHostName(domain) else {
            throw CommandError("'\(domain)' is not a valid host name")
        }
    }

    static func isHostName(_ name: String) -> Bool {
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        guard !trimmed.isEmpty, trimmed.utf8.count <= 253 else { return false }
        let labels = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            (1...63).contains(label.utf8.count)
                && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }
}
