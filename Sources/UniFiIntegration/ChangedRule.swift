/// A rule a command set: the publish after the command covers it alone (`PublishScope`).
struct ChangedRule: Hashable, Sendable {
    let controller: String
    let key: String
    let id: String
}
