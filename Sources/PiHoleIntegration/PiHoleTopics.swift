/// Every Pi-hole topic below `base/pihole`, in one place (listed for users in docs/topics.md).
/// Public so that clients (the `home2mqtt` companion commands) address the same topics.
public enum PiHoleTopics {
    /// The topic level below the base topic, and the configuration section.
    public static let name = "pihole"

    /// Aggregate state: `""` is `base/pihole` itself.
    public static let aggregate = ""
    /// `online` when at least one Pi-hole answers.
    public static let availability = "availability"

    public static func instance(_ id: String) -> String { id }
    public static func instanceAvailability(_ id: String) -> String { "\(id)/availability" }

    public static func pause(_ id: String?) -> String { scoped(id, "pause") }
    public static func resume(_ id: String?) -> String { scoped(id, "resume") }
    public static func refresh(_ id: String?) -> String { scoped(id, "refresh") }
    public static func blockingSet(_ id: String?) -> String { scoped(id, "blocking/set") }
    /// `domains/<allow|deny>/<add|remove>`, on every Pi-hole or on one.
    public static func domains(_ id: String?, list: String, action: String) -> String { scoped(id, "domains/\(list)/\(action)") }

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
