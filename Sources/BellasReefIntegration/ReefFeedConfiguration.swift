import BridgeCore

/// `reef.feed`: the outlets feed mode turns off (by name, key or id: the controller's list is
/// read at run time), each back when the feed ends or, staged, some time after; and for how long
/// when a feed command names no time.
struct ReefFeedConfiguration: Sendable, Equatable {
    struct Outlet: Sendable, Equatable {
        let name: String
        /// After the feed's end: a skimmer once the sump has settled. Zero: at the end.
        let restoreAfter: Duration
    }

    let outlets: [Outlet]
    let defaultDuration: Duration

    /// An outlet's staged return: at most an hour after the feed.
    static let restoreAfterRange = 0...3600

    /// `nil` when the section has no `feed`.
    static func read(_ section: ConfigSection) throws(ConfigError) -> ReefFeedConfiguration? {
        guard section.contains("feed") else { return nil }
        let feed = try section.section("feed").allowing(["outlets", "default_minutes"])
        let usage = #"needs the outlets to turn off while the fish feed, by name: ["Return Pump", {outlet: "Skimmer", restore_after: 300}]"#
        guard let items = try feed.textsOrSections("outlets"), !items.isEmpty else {
            throw ConfigError(key: feed.keyPath("outlets"), usage)
        }
        var outlets: [Outlet] = []
        for item in items {
            let (outlet, path) = try Self.outlet(item)
            guard !outlets.contains(where: { $0.name == outlet.name }) else {
                throw ConfigError(key: path, "names '\(outlet.name)' a second time")
            }
            outlets.append(outlet)
        }
        let minutes = try feed.int("default_minutes", default: 10, in: 1...240)
        return ReefFeedConfiguration(outlets: outlets, defaultDuration: .seconds(Int64(minutes) * 60))
    }

    private static func outlet(_ item: ConfigSection.TextOrSection) throws(ConfigError) -> (Outlet, path: String) {
        switch item {
        case .text(let name, let path):
            return (Outlet(name: name, restoreAfter: .zero), path)
        case .section(let section):
            let section = try section.allowing(["outlet", "restore_after"])
            let seconds = try section.int("restore_after", default: 0, in: restoreAfterRange)
            return (Outlet(name: try section.requiredString("outlet"), restoreAfter: .seconds(Int64(seconds))), section.keyPath("outlet"))
        }
    }
}
