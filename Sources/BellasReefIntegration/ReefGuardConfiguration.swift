import BridgeCore

/// `reef.guard`: the probes the bridge watches, each with its limits, and how long a reading may
/// stay unrefreshed before it no longer counts.
struct ReefGuardConfiguration: Sendable, Equatable {
    struct Probe: Sendable, Equatable {
        /// As configured: the probe's name, key or hardware address.
        let probe: String
        /// The alarm's topic level and Home Assistant id: the probe as configured, made a key.
        let key: String
        let limits: ProbeGuard
    }

    let probes: [Probe]

    /// `nil` when the section has no `guard`. `temperatureInterval`: the default `stale_after`
    /// is four of them (at least a minute).
    static func read(_ section: ConfigSection, temperatureInterval: Duration) throws(ConfigError) -> ReefGuardConfiguration? {
        guard section.contains("guard") else { return nil }
        let defaultStale = Int(defaultStaleAfter(temperatureInterval: temperatureInterval).components.seconds)
        var probes: [Probe] = []
        for item in try section.sections("guard") {
            let item = try item.allowing(["probe", "low", "high", "hysteresis", "stale_after"])
            let name = try item.requiredString("probe")
            let low = try item.decimal("low", in: temperatures)
            let high = try item.decimal("high", in: temperatures)
            guard low != nil || high != nil else { throw ConfigError(key: item.keyPath("low"), "a guarded probe needs low, high or both") }
            if let low, let high, low >= high {
                throw ConfigError(key: item.keyPath("high"), "must be above low (\(low)), got \(high)")
            }
            let hysteresis = try item.decimal("hysteresis", in: 0...20) ?? 0.2
            if let low, let high, hysteresis * 2 >= high - low {
                throw ConfigError(key: item.keyPath("hysteresis"), "must be less than half of high − low (\(high - low)), got \(hysteresis)")
            }
            let stale = try item.int("stale_after", default: defaultStale, in: 5...86_400)
            let key = TopicKey.slug(name, fallback: name)
            guard !probes.contains(where: { $0.key == key }) else {
                throw ConfigError(key: item.keyPath("probe"), "'\(name)' is guarded twice")
            }
            probes.append(Probe(
                probe: name, key: key,
                limits: ProbeGuard(low: low, high: high, hysteresis: hysteresis, staleAfter: .seconds(Int64(stale)))))
        }
        return ReefGuardConfiguration(probes: probes)
    }

    /// The limits a probe's reading may be given (°C or °F).
    static let temperatures: ClosedRange<Double> = -100...200

    /// Four readings missed (at least a minute): the reading no longer counts.
    static func defaultStaleAfter(temperatureInterval: Duration) -> Duration {
        .seconds(max(60, temperatureInterval.components.seconds * 4))
    }
}
