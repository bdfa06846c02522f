/// What the next publish of UniFi's state must cover. A command that set a rule asks for that
/// rule alone; anything else (a poll, a restore, a failed command) for the whole state, which at a
/// thousand rules takes milliseconds of the loop that also carries the commands' answers.
struct PublishScope: Sendable, Equatable {
    struct Rule: Hashable, Sendable {
        let controller: String
        let key: String
        let id: String
    }

    /// The rules set since the last publish; `nil` for the whole state.
    private(set) var rules: Set<Rule>?

    static let wholeState = PublishScope(rules: nil)
    /// Nothing asked since the last publish.
    static let nothing = PublishScope(rules: [])
    static func rule(_ rule: Rule) -> PublishScope { PublishScope(rules: [rule]) }

    /// What a publish covers when asked for `self` and, before it went out, for `other`.
    func adding(_ other: PublishScope) -> PublishScope {
        guard let rules, let more = other.rules else { return .wholeState }
        return PublishScope(rules: rules.union(more))
    }
}
