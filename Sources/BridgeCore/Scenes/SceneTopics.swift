/// The scenes' topics, below `base/scene`.
public enum SceneTopics {
    /// The topic level below the base topic.
    public static let name = "scene"
    /// The configuration key that lists them.
    public static let configurationKey = "scenes"

    /// `online` while the bridge runs: scenes have no upstream of their own.
    public static let availability = "availability"
    /// Retained: `{"state":"on"|"ending"|"off","until","parts"}`.
    public static func state(_ key: String) -> String { key }
    /// `ON`, `OFF`, or `{"state":"on","for"|"until"}`.
    public static func set(_ key: String) -> String { "\(key)/set" }
    static let commandFilters = ["+/set"]
    /// What the page's controls send: every scene's switch.
    static let everydayCommands = commandFilters

    /// A scene's topic key, from its name as configured (or as typed: `Quiet evening`).
    public static func key(_ name: String) -> String { TopicKey.slug(name, fallback: name) }
}
