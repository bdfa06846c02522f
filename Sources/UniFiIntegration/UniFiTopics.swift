/// Every UniFi topic below `base/unifi`, in one place (listed for users in docs/topics.md).
/// Public so that clients (the `home2mqtt` companion commands) address the same topics.
public enum UniFiTopics {
    /// The topic level below the base topic, and the configuration section.
    public static let name = "unifi"

    /// `online` when at least one controller answers.
    public static let availability = "availability"
    /// Every managed rule by key: `{"downtime-emma":{"id","name","kind","controller"},…}`.
    public static let rules = "rules"

    public static func rule(_ key: String) -> String { "rule/\(key)" }
    public static func ruleSet(_ key: String) -> String { "rule/\(key)/set" }
    public static let refresh = "refresh"

    public static func controller(_ id: String) -> String { "controller/\(id)" }
    public static func controllerAvailability(_ id: String) -> String { "controller/\(id)/availability" }

    /// Exact command topics only, so that the bridge never hears its own state or answers.
    static let commandFilters = ["rule/+/set", "refresh"]
}
