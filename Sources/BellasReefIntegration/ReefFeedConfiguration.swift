import BridgeCore

/// `reef.feed`: the outlets feed mode turns off (by name, key or id: the controller's list is
/// read at run time), and for how long when a feed command names no time.
struct ReefFeedConfiguration: Sendable, Equatable {
    let outlets: [String]
    let defaultDuration: Duration

    /// `nil` when the section has no `feed`.
    static func read(_ section: ConfigSection) throws(ConfigError) -> ReefFeedConfiguration? {
        guard section.contains("feed") else { return nil }
        let feed = try section.section("feed").allowing(["outlets", "default_minutes"])
        guard let outlets = try feed.stringList("outlets"), !outlets.isEmpty else {
            throw ConfigError(key: feed.keyPath("outlets"), "needs the outlets to turn off while the fish feed, by name: [\"Return Pump\", \"Skimmer\"]")
        }
        guard Set(outlets).count == outlets.count else {
            throw ConfigError(key: feed.keyPath("outlets"), "names an outlet twice")
        }
        let minutes = try feed.int("default_minutes", default: 10, in: 1...240)
        return ReefFeedConfiguration(outlets: outlets, defaultDuration: .seconds(Int64(minutes) * 60))
    }
}
