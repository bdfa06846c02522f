import BellasReefAPI

/// Every Bella's Reef topic below `base/reef`, in one place (listed for users in docs/topics.md).
/// Public so that clients (the `home2mqtt outlet` companion command) address the same topics.
public enum ReefTopics {
    /// The topic level below the base topic, and the configuration section.
    public static let name = "reef"

    /// `online` while at least one service of the controller answers.
    public static let availability = "availability"
    /// The scene part (`scenes[].parts[]`) that switches an outlet.
    public static let outletPart = "reef_outlet"
    /// Status, service name and version of each service.
    public static let health = "health"
    /// Host info and system usage of the controller.
    public static let system = "system"
    /// key → id and name of every outlet, and of every probe.
    public static let outletIndex = "outlets"
    public static let probeIndex = "probes"

    /// `core/availability`, `temperature/availability`, `outlets/availability`.
    public static func serviceAvailability(_ service: BellasReefService) -> String { "\(service.rawValue)/availability" }

    public static func outlet(_ key: String) -> String { "outlet/\(key)" }
    public static func probe(_ key: String) -> String { "probe/\(key)" }

    /// `ON`, `OFF`, `TOGGLE` or `{"state":"off","for":600}`; `<key>` may also be the outlet's id.
    public static func outletSet(_ key: String) -> String { "outlet/\(key)/set" }
    /// Reads everything now.
    public static let refresh = "refresh"

    /// A guarded probe's alarm: `{"state":"ok"|"low"|"high"|"stale"|"error","value","since","limits"}`.
    public static func alarm(_ key: String) -> String { "alarm/\(key)" }

    /// An outlet interlock: `{"state":"armed"|"tripped"|"overridden","since","probe","outlet","above","min_off","release_at"}`.
    public static func interlock(_ key: String) -> String { "interlock/\(key)" }

    /// Feed mode: `{"active","until","outlets"}`.
    public static let feed = "feed"
    /// Empty (`reef.feed.default_minutes`), `{"for":600}`, `{"until":…}` or a number of seconds.
    public static let feedStart = "feed/start"
    /// Restores the feed outlets at once.
    public static let feedCancel = "feed/cancel"

    /// Exact command topics only, so that the bridge never hears its own state or responses.
    static let commandFilters = ["outlet/+/set", refresh, feedStart, feedCancel]
    /// What the page's controls send: outlet switches.
    static let everydayCommands = ["outlet/+/set"]

    /// The persisted timer of feed mode: one promise for all its outlets.
    static let feedTimer = "feed"

    /// The persisted timer that holds an interlocked outlet off: `{"state","outlet"}`, the state before the trip.
    static func interlockTimer(_ key: String) -> String { "interlock/\(key)" }
    static func interlockKey(ofTimer key: String) -> String? {
        key.hasPrefix("interlock/") ? String(key.dropFirst("interlock/".count)) : nil
    }

    /// The persisted timer that restores an outlet after a timed command.
    static func restoreTimer(outletID: String) -> String { "outlet/\(outletID)" }
    static func outletID(ofRestoreTimer key: String) -> String? {
        key.hasPrefix("outlet/") ? String(key.dropFirst("outlet/".count)) : nil
    }
}
