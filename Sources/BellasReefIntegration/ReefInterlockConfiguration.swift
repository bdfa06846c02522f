import BridgeCore

/// `reef.interlocks`: each "when this probe is above that, this outlet off". Only "too hot → off"
/// is offered: an interlock that turns something on would fight whoever turned it off.
struct ReefInterlockConfiguration: Sendable, Equatable {
    /// As configured: the probe's name, key or hardware address (as `reef.guard`).
    let probe: String
    /// As configured: the outlet's name, key or id (as `reef.feed`); read at run time.
    let outlet: String
    /// The state topic's level, the timer's and Home Assistant's id: the outlet made a key.
    let key: String
    let rule: OutletInterlock

    /// An empty list when the section has no `interlocks`. `temperatureInterval`: a reading is
    /// stale after the guard's default `stale_after`.
    static func read(_ section: ConfigSection, temperatureInterval: Duration) throws(ConfigError) -> [ReefInterlockConfiguration] {
        var interlocks: [ReefInterlockConfiguration] = []
        for item in try section.sections("interlocks") {
            let item = try item.allowing(["probe", "above", "outlet", "min_off", "hysteresis", "on_probe_lost"])
            let probe = try item.requiredString("probe")
            guard let above = try item.decimal("above", in: ReefGuardConfiguration.temperatures) else {
                throw ConfigError(key: item.keyPath("above"), "is required: the reading above which the outlet is turned off")
            }
            let outlet = try item.requiredString("outlet")
            let minOff = try item.int("min_off", default: 600, in: 1...86_400)
            let hysteresis = try item.decimal("hysteresis", in: 0...20) ?? 0.2
            let onProbeLost = try item.choice("on_probe_lost", default: OutletInterlock.OnProbeLost.keep)
            let key = TopicKey.slug(outlet, fallback: outlet)
            guard !interlocks.contains(where: { $0.key == key }) else {
                throw ConfigError(key: item.keyPath("outlet"), "'\(outlet)' is interlocked twice: one interlock per outlet")
            }
            interlocks.append(ReefInterlockConfiguration(
                probe: probe, outlet: outlet, key: key,
                rule: OutletInterlock(
                    above: above, hysteresis: hysteresis, minOff: .seconds(Int64(minOff)),
                    staleAfter: ReefGuardConfiguration.defaultStaleAfter(temperatureInterval: temperatureInterval),
                    onProbeLost: onProbeLost)))
        }
        return interlocks
    }
}
