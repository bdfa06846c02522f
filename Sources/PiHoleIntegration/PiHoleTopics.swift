/// Every Pi-hole topic below `base/pihole`, in one place (listed for users in docs/topics.md).
enum PiHoleTopics {
    /// Aggregate state: `""` is `base/pihole` itself.
    static let aggregate = ""
    /// `online` when at least one Pi-hole answers.
    static let availability = "availability"

    static func instance(_ id: String) -> String { id }
    static func instanceAvailability(_ id: String) -> String { "\(id)/availability" }

    static func pause(_ id: String?) -> String { scoped(id, "pause") }
    static func resume(_ id: String?) -> String { scoped(id, "resume") }
    static func refresh(_ id: String?) -> String { scoped(id, "refresh") }
    static func blockingSet(_ id: String?) -> String { scoped(id, "blocking/set") }

    /// The first word of every command; an instance id may not be one of them.
    static let commandWords: Set<String> = ["pause", "resume", "refresh", "blocking", "domains"]
    /// Words an instance id may not be, since topics below the root already use them.
    static let reservedIDs: Set<String> = commandWords.union(["availability"])

    /// Exact command topics only, so that the bridge never hears its own state or responses.
    static let commandFilters = [
        "pause", "resume", "refresh", "blocking/set", "domains/+/+",
        "+/pause", "+/resume", "+/refresh", "+/blocking/set", "+/domains/+/+",
    ]

    private static func scoped(_ id: String?, _ command: String) -> String {
        id.map { "\($0)/\(command)" } ?? command
    }
}
