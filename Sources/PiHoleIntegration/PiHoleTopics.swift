/// Every Pi-hole topic below `base/pihole`, in one place (listed for users in docs/topics.md).
/// Public so that clients (the `home2mqtt` companion commands) address the same topics.
public enum PiHoleTopics {
    /// The topic level below the base topic, and the configuration section.
    public static let name = "pihole"

    /// Scene parts (`scenes[].parts[]`): a group on or off, a client's groups, a pause.
    public static let groupPart = "pihole_group"
    public static let clientPart = "pihole_client"
    public static let pausePart = "pihole"

    /// Aggregate state: `""` is `base/pihole` itself.
    public static let aggregate = ""
    /// `online` when at least one Pi-hole answers.
    public static let availability = "availability"
    /// Queries and blocked queries summed over every Pi-hole.
    public static let aggregateStats = "stats"
    /// Each group name seen on any Pi-hole, with its state on each.
    public static let aggregateGroups = "groups"
    /// Each configured client seen on any Pi-hole: its groups on each, a pause in force.
    public static let aggregateClients = "clients"

    public static func instance(_ id: String) -> String { id }
    public static func instanceAvailability(_ id: String) -> String { "\(id)/availability" }
    /// `GET /api/stats/summary`, read every `stats_interval`.
    public static func stats(_ id: String) -> String { "\(id)/stats" }
    /// The Pi-hole's groups by key: name, enabled, comment, a pending restore.
    public static func groups(_ id: String) -> String { "\(id)/groups" }
    /// The Pi-hole's configured clients by key: groups, comment, a pending restore.
    public static func clients(_ id: String) -> String { "\(id)/clients" }
    /// Installed and latest versions of core, web and FTL.
    public static func updates(_ id: String) -> String { "\(id)/updates" }
    /// API seats in use and FTL's warnings.
    public static func diagnostics(_ id: String) -> String { "\(id)/diagnostics" }

    public static func pause(_ id: String?) -> String { scoped(id, "pause") }
    public static func resume(_ id: String?) -> String { scoped(id, "resume") }
    public static func refresh(_ id: String?) -> String { scoped(id, "refresh") }
    public static func blockingSet(_ id: String?) -> String { scoped(id, "blocking/set") }
    /// `domains/<allow|deny>/<add|remove>`, on every Pi-hole or on one.
    public static func domains(_ id: String?, list: String, action: String) -> String { scoped(id, "domains/\(list)/\(action)") }
    /// `group/<key>/set`: on every Pi-hole that has the group, or on one.
    public static func groupSet(_ id: String?, key: String) -> String { scoped(id, "group/\(key)/set") }
    /// `client/<key>/groups/set`: the client's groups, on every Pi-hole that has it, or on one.
    public static func clientGroupsSet(_ id: String?, key: String) -> String { scoped(id, "client/\(key)/groups/set") }
    /// `client/<key>/pause`: no filtering for the client for a while.
    public static func clientPause(_ id: String?, key: String) -> String { scoped(id, "client/\(key)/pause") }
    /// Request/response: the domains blocked lately, on every Pi-hole or on one.
    public static func recentlyBlocked(_ id: String?) -> String { scoped(id, "recently_blocked/get") }
    /// Request/response: which entries and lists match a domain and whether it is blocked, on
    /// every Pi-hole or on one.
    public static func search(_ id: String?) -> String { scoped(id, "search") }
    /// `action/<gravity|restartdns|flush_logs>`: admin actions.
    public static func action(_ id: String?, _ action: PiHoleAction) -> String { scoped(id, "action/\(action.rawValue)") }

    /// The first word of every command; an instance id may not be one of them.
    static let commandWords: Set<String> = [
        "pause", "resume", "refresh", "blocking", "domains", "group", "client", "recently_blocked", "action", "search",
    ]
    /// Words an instance id may not be, since topics below the root already use them.
    static let reservedIDs: Set<String> = commandWords.union([availability, aggregateStats, aggregateGroups, aggregateClients])

    /// Exact command topics only, so that the bridge never hears its own state or responses.
    static let commandFilters = [
        "pause", "resume", "refresh", "blocking/set", "domains/+/+", "group/+/set", "client/+/groups/set", "client/+/pause",
        "recently_blocked/get", "action/+", "search",
        "+/pause", "+/resume", "+/refresh", "+/blocking/set", "+/domains/+/+", "+/group/+/set", "+/client/+/groups/set",
        "+/client/+/pause", "+/recently_blocked/get", "+/action/+", "+/search",
    ]
    /// What the page's controls send: pauses and group switches, on every Pi-hole or on one.
    static let everydayCommands = ["pause", "resume", "group/+/set", "+/pause", "+/resume", "+/group/+/set"]

    private static func scoped(_ id: String?, _ command: String) -> String {
        id.map { "\($0)/\(command)" } ?? command
    }
}

/// The Pi-hole's admin actions, by the topic level that asks for them.
public enum PiHoleAction: String, Sendable, CaseIterable {
    /// `POST /api/action/gravity`: re-reads the block lists; streams for minutes.
    case gravity
    /// `POST /api/action/restartdns`.
    case restartDNS = "restartdns"
    /// `POST /api/action/flush/logs`: empties the query log of the last 24 hours.
    case flushLogs = "flush_logs"
}
